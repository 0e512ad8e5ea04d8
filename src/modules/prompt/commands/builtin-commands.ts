import type { CommandInfo } from './command-files';

const INIT = `Study this project and write a file named AGENTS.md at its root (or bring the existing one up to date)
for coding agents that will work here after you. It is read at the start of every session, so keep it short
(about 20 to 40 lines) and make every line earn its place.

Find out before you write:
- how to install dependencies, build, lint, type-check and run the tests, including how to run one test file
  or one test by name (look at package manifests, Makefiles, CI workflows, scripts folders, READMEs);
- the code style the project follows (formatter and linter settings, import order, naming, error handling,
  how types are used), from its config files and from the code itself;
- how the code is laid out: the main folders and what lives in each, entry points, where tests go;
- rules already written down for assistants (.cursorrules, .cursor/rules/, .github/copilot-instructions.md,
  CLAUDE.md): carry over what still holds.

Then write AGENTS.md with sections for commands, code style and layout. Prefer exact commands over prose.
Leave out what any developer would know anyway and anything you could not confirm from the files.
If AGENTS.md exists, keep what is still true, fix what is wrong, and add what is missing.

$ARGUMENTS`;

const REVIEW = `Review code changes and report what is wrong with them.

What to review: $ARGUMENTS
- If nothing is named above, review the uncommitted changes: run \`git status\`, \`git diff\` and
  \`git diff --staged\`, and read new untracked files whole.
- If a commit, a range or a branch is named, run \`git show <commit>\` or \`git diff <base>...<branch>\` for it.

Read enough of the surrounding code to judge each change in context. Look for bugs and wrong behaviour, edge
cases and error handling, security problems, races, missing or weak tests, and code that breaks the project's
own conventions. Do not edit any file: this is a review.

Report each issue with its severity (critical, major, minor, nit), the file and line (\`path:line\`), what is
wrong and how to fix it, most severe first. Say plainly when you find nothing worth fixing.`;

/** The commands every location has (a file or config command of the same name replaces one). */
export const BUILTIN_COMMANDS: CommandInfo[] = [
  {
    name: 'init',
    description: 'create or update AGENTS.md for this project',
    template: INIT,
  },
  {
    name: 'review',
    description: 'review changes [commit|branch|pr], defaults to uncommitted',
    template: REVIEW,
  },
];
