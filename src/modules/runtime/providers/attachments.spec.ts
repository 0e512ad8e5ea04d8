import { toPromptMessages, TranscriptMessage } from './history';
import { acceptedFiles, ProviderConfig } from './provider-config';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

/** The user parts the model gets for one user message with these files. */
function userParts(files: Array<Record<string, unknown>>, accepts: ReadonlySet<'image' | 'pdf'>) {
  const transcript = [{ type: 'user', text: 'look', files }] as TranscriptMessage[];
  const [message] = toPromptMessages(transcript, { accepts });
  return message.content as unknown as Array<Record<string, unknown>>;
}

const pasted = {
  data: PNG,
  mime: 'image/png',
  name: 'shot.png',
  source: { type: 'uri', uri: 'data:image/png' },
};
const mentioned = {
  data: PNG,
  mime: 'image/png',
  name: 'shot.png',
  source: { type: 'uri', uri: 'file:///project/shot.png' },
};

describe('attachments a model cannot take', () => {
  it('a pasted image and a mentioned image become the same note for a text-only model', () => {
    const note = {
      type: 'text',
      text: 'ERROR: Cannot read "shot.png" (this model does not support image input). Inform the user.',
    };
    expect(userParts([pasted], new Set())[1]).toEqual(note);
    expect(userParts([mentioned], new Set())[1]).toEqual(note);
  });

  it('names the modality when the file has no name, and says so for PDFs', () => {
    const pdf = { data: 'JVBERi0=', mime: 'application/pdf' };
    expect(userParts([pdf], new Set(['image']))[1]).toEqual({
      type: 'text',
      text: 'ERROR: Cannot read pdf (this model does not support pdf input). Inform the user.',
    });
  });

  it('an empty image is reported as such', () => {
    expect(userParts([{ ...pasted, data: '' }], new Set(['image']))[1]).toEqual({
      type: 'text',
      text: 'ERROR: Image file is empty or corrupted. Please provide a valid image.',
    });
  });

  it('a model that takes images gets the file part, whatever its source', () => {
    for (const file of [pasted, mentioned]) {
      expect(userParts([file], new Set(['image']))[1]).toMatchObject({
        type: 'file',
        mediaType: 'image/png',
        data: PNG,
      });
    }
  });
});

describe('what a model takes', () => {
  const compatible: ProviderConfig = { package: 'aisdk:@ai-sdk/openai-compatible', models: {} };
  const sorted = (set: ReadonlySet<string>) => [...set].sort();

  it("is decided by the model's family when its config does not list modalities", () => {
    expect(sorted(acceptedFiles(compatible, {}, 'llama-3.1-8b'))).toEqual([]);
    expect(sorted(acceptedFiles(compatible, {}, 'claude-sonnet-4'))).toEqual(['image', 'pdf']);
    expect(sorted(acceptedFiles(compatible, {}, 'openai/gpt-4o'))).toEqual(['image', 'pdf']);
    expect(sorted(acceptedFiles({ ...compatible, package: 'aisdk:@ai-sdk/anthropic' }, {}, 'x'))).toEqual([
      'image',
      'pdf',
    ]);
  });

  it("is what the configured model's modalities.input lists, when it lists them", () => {
    expect(sorted(acceptedFiles(compatible, { modalities: { input: ['text', 'image'] } }, 'llava'))).toEqual([
      'image',
    ]);
    expect(sorted(acceptedFiles(compatible, { modalities: { input: ['text'] } }, 'claude-sonnet-4'))).toEqual(
      [],
    );
  });
});
