import { promptCommandName, resultText, sanitize } from './mcp-tools';

describe('MCP tools as the model sees them', () => {
  it('names are sanitized as opencode does', () => {
    expect(sanitize('my.server/v2')).toBe('my_server_v2');
    expect(sanitize('ok-name_1')).toBe('ok-name_1');
    expect(promptCommandName('my server', 'review code')).toBe('my_server:review_code');
  });

  it('text stays text, embedded resources give their text, images and audio a note', () => {
    const text = resultText({
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', data: Buffer.from('12345').toString('base64'), mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AA==', mimeType: 'application/zip' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'one',
      '[The tool returned an image (image/png, 5 bytes), not shown]',
      'inside',
      '[Resource file:///b.bin (application/zip)]',
      '[Resource file:///c]',
    ]);
  });

  it('a result with only structured content gives it as JSON', () => {
    expect(resultText({ content: [], structuredContent: { total: 3 } })).toBe('{"total":3}');
  });
});
