import { EventsPublisher } from '@/common/events';
import { SessionsService } from '../sessions/sessions.service';
import { V1TuiService } from './v1-tui.service';

describe('the TUI control queue', () => {
  const published: Array<[string, unknown]> = [];
  const events = { publish: (type: string, data: unknown) => published.push([type, data]) };
  const tui = () => new V1TuiService(events as unknown as EventsPublisher, {} as SessionsService);

  it('hands queued requests over oldest first', async () => {
    const service = tui();
    service.appendPrompt('one');
    service.executeCommand('agent_cycle');
    expect(await service.next()).toEqual({ path: '/tui/append-prompt', body: { text: 'one' } });
    expect(await service.next()).toEqual({ path: '/tui/execute-command', body: { command: 'agent_cycle' } });
    expect(published.slice(-1)).toEqual([['tui.command.execute', { command: 'agent.cycle' }]]);
  });

  it('a reader of an empty queue waits for the next request; one that leaves gets nothing', async () => {
    const service = tui();
    let got: unknown = 'nothing yet';
    const reading = service.next().then((request) => (got = request));
    await Promise.resolve();
    expect(got).toBe('nothing yet');
    service.command('/tui/clear-prompt', 'prompt.clear');
    await reading;
    expect(got).toEqual({ path: '/tui/clear-prompt', body: {} });

    const left = new AbortController();
    const leaving = service.next(left.signal);
    left.abort();
    expect(await leaving).toBeUndefined();
    service.appendPrompt('kept');
    expect(await service.next()).toEqual({ path: '/tui/append-prompt', body: { text: 'kept' } });
  });

  it('keeps the last 100 requests when no TUI reads them', async () => {
    const service = tui();
    for (let i = 0; i < 120; i++) service.appendPrompt(String(i));
    expect(await service.next()).toEqual({ path: '/tui/append-prompt', body: { text: '20' } });
  });
});
