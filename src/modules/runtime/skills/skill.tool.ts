import { dirname } from 'node:path';
import { ToolError } from '../tools/tool.errors';
import { Tool } from '../tools/tool.types';
import type { SkillInfo } from './skill-files';

interface SkillInput {
  name: string;
}

class SkillNotFoundError extends ToolError {
  override readonly type = 'SkillNotFound';
}

/**
 * The `skill` tool over the skills an agent may load: its description lists them (name and description), a call
 * gives the chosen skill's instructions and the folder they came from, so the model can read the files beside them.
 * Each call is checked as the action `skill` on the skill's name.
 */
export function skillTool(skills: SkillInfo[]): Tool<SkillInput> {
  const listed = skills.map((skill) => `- ${skill.name}: ${skill.description ?? '(no description)'}`);
  return {
    name: 'skill',
    action: 'skill',
    description: [
      'Load a skill: instructions written for a kind of task, with any files that come with it.',
      'Load one when the task in front of you matches its description, before you start on the task.',
      '',
      'Available skills:',
      ...listed,
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The name of the skill, from the list above' } },
      required: ['name'],
      additionalProperties: false,
    },
    permissions: (input) => [{ action: 'skill', resource: input.name }],
    run(input) {
      const skill = skills.find((s) => s.name === input.name);
      if (!skill) {
        const names = skills.map((s) => s.name).join(', ');
        return Promise.reject(new SkillNotFoundError(`No skill named ${input.name}. Skills: ${names}`));
      }
      const folder = dirname(skill.location);
      const output = [
        `<skill name="${skill.name}">`,
        `Folder: ${folder} (files the instructions mention are relative to it)`,
        '',
        skill.content,
        '</skill>',
      ].join('\n');
      return Promise.resolve({
        output,
        title: `Loaded skill ${skill.name}`,
        metadata: { name: skill.name, dir: folder },
      });
    },
  };
}
