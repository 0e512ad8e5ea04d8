import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags the server sets on itself before any other module loads (the first import of main.ts).
 *
 * `--no-allocation-site-pretenuring`: V8 may judge that the objects made at a busy allocation site outlive the
 * young generation and allocate them straight into the old one. In a server that judgement misfires: a request's
 * objects die within milliseconds, but once some of them are born old, everything they point to survives each
 * young collection (it is referenced from the old generation) and is promoted in turn. On the gateway's hot path
 * (bench/gateway) a third of the young generation survived every scavenge, scavenges took 10 to 20 ms instead of
 * 1 to 2, and the old generation grew by 3 MB per scavenge until a full collection: RSS near 300 MB after a few
 * seconds of load instead of 170 MB, and a fifth less throughput.
 *
 * `--heap-growing-percent=50`: after each full collection V8 lets the old generation grow to a multiple of what
 * survived before the next one, a multiple it picks between 1.1 and 4 from how fast the program allocates. Under
 * gateway load it picked near the top: ~70 MB live, a heap let grow toward 175 MB, and the server's RSS at 234 MB
 * before a thousand slow streams and 259 MB with them (bench/gateway). Capped at 1.5 the heap is collected sooner
 * and the same run stays near 200 MB (202 MB before the streams, 216 MB with them); an A/B at 10 connections showed
 * no throughput lost. No test holds this: how far the heap overshoots also follows how fast the GC's threads run, and a
 * probe comparing the two settings failed three runs of six on a busy machine. bench/gateway measures it.
 */
export const V8_FLAGS = ['--no-allocation-site-pretenuring', '--heap-growing-percent=50'];

/**
 * V8 flags only node's command line can give: V8 sizes the young generation when it makes the heap, so a
 * `setFlagsFromString` here would change nothing. `npm start` (package.json) and the image (docker/Dockerfile's CMD)
 * start the server with them, and the benches do too.
 *
 * `--max-semi-space-size=32`: node 20's young generation holds 16 MB per semi-space, less than what 50 calls in flight
 * with a coding agent's 90 KB conversation keep alive (the text, its parsed copy, the provider's request). Each young
 * collection then promoted all of it, and the old generation was collected over and over: at 50 connections the
 * gateway used ~1,050 µs of CPU per such call and answered ~1,270 a second, against ~420 µs and ~2,290 a second with
 * 32 MB (a 6-second probe of each on 28 November; bench/gateway's 90 KB row at 50 connections went from 1,215 to
 * 2,191 calls a second). Small calls gained 4–9% in three alternating rounds. The cost is memory: RSS after a load of
 * small calls was 218–227 MB against 190–202 MB.
 */
export const LAUNCH_FLAGS = ['--max-semi-space-size=32'];

for (const flag of V8_FLAGS) setFlagsFromString(flag);
