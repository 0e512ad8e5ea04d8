import { parseArgs, ParseArgsConfig } from 'node:util';

/** A command line a command cannot take; the message names the option or argument. */
export class CommandLineError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The options and arguments of an `outpost` command, read by node's `parseArgs` in strict mode: `--name=value` and
 * `--name value` alike; an unknown option, a missing value or more than `positionals` arguments is a
 * CommandLineError, never ignored.
 */
export function commandLine<const O extends Options>(args: string[], options: O, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // node's advice on positionals that start with '-' is no help to an `outpost` command; the first sentence is.
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    if (code?.startsWith('ERR_PARSE_ARGS_')) throw new CommandLineError(message);
    throw error;
  }
  if (parsed.positionals.length > positionals)
    throw new CommandLineError(`Unexpected argument '${parsed.positionals[positionals]}'`);
  return parsed;
}

/** `commandLine`, or the error and the command's usage on stderr and exit code 2. */
export function commandLineOrExit<const O extends Options>(
  command: string,
  usage: string,
  args: string[],
  options: O,
  positionals = 0,
) {
  try {
    return commandLine(args, options, positionals);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    process.stderr.write(`outpost ${command}: ${error.message}\n\n${usage}`);
    process.exit(2);
  }
}
