import { csvCell, requestLogCsv } from './request-log-csv';
import type { RequestLogRowDto } from './dto/request-log.dto';

describe('the request log as CSV', () => {
  it('defuses a cell a spreadsheet would read as a formula: a leading =, +, -, @, TAB or CR', () => {
    for (const lead of ['=', '+', '-', '@']) expect(csvCell(`${lead}1+1`)).toBe(`'${lead}1+1`);
    // A TAB or CR before the formula: spreadsheets skip it and run the rest (OWASP's CSV injection list).
    expect(csvCell('\t=HYPERLINK("http://x")')).toBe(`"'\t=HYPERLINK(""http://x"")"`);
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvCell('\tplain')).toBe(`'\tplain`);
  });

  it('leaves other cells as they are, quoting only commas, quotes and line breaks', () => {
    expect(csvCell('gpt-4o')).toBe('gpt-4o');
    expect(csvCell('a\tb')).toBe('a\tb');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(0)).toBe('0');
  });

  it('writes a header and a CRLF-ended line per row: ids for tools, names and dollars for people', () => {
    const row = {
      id: 'req_1',
      request_id: 'r1',
      time: '2026-01-01T00:00:00.000Z',
      member: 'usr_1',
      member_name: 'Ada',
      key: null,
      key_name: null,
      route: '/inference/openai/v1/chat/completions',
      model: '\t=cmd',
      model_name: '\t=cmd',
      served_by: null,
      status: 200,
      outcome: 'answered',
      input_tokens: 1,
      output_tokens: 2,
      cost_micro_cents: '1050',
      duration_ms: 4,
      ttfb_ms: null,
    } as unknown as RequestLogRowDto;
    const lines = requestLogCsv([row]).split('\r\n');
    expect(lines[0]).toBe(
      'time,request_id,member,member_name,key,key_name,route,model,model_name,served_by,status,outcome,input_tokens,output_tokens,cost_micro_cents,cost_dollars,duration_ms,ttfb_ms',
    );
    expect(lines[1]).toBe(
      "2026-01-01T00:00:00.000Z,r1,usr_1,Ada,,,/inference/openai/v1/chat/completions,'\t=cmd,'\t=cmd,,200,answered,1,2,1050,0.0000105,4,",
    );
    expect(lines[2]).toBe('');
  });
});
