import { Injectable } from '@nestjs/common';
import { LocationConfigService } from '../../location-config/location-config.service';
import { ResolvedLocation } from '../../locations/location.types';
import { evaluate } from '../permissions/evaluate';
import { PermissionRuleset } from '../permissions/permission.types';
import { AnyTool } from '../tools/tool.types';
import { GLOBAL_SKILL_DIRS, PROJECT_SKILL_DIRS, readSkills, SkillInfo } from './skill-files';
import { skillTool } from './skill.tool';

/**
 * A location's skills: `<name>/SKILL.md` folders in the global config dir, the project root and the location
 * (later ones replacing earlier ones by name). Read on each call, like commands: an edited skill applies at once.
 */
@Injectable()
export class SkillsService {
  constructor(private readonly configs: LocationConfigService) {}

  list(location: ResolvedLocation): Promise<SkillInfo[]> {
    const sources = [
      { base: this.configs.globalDir, dirs: GLOBAL_SKILL_DIRS },
      { base: location.project.directory, dirs: PROJECT_SKILL_DIRS },
    ];
    if (location.directory !== location.project.directory) {
      sources.push({ base: location.directory, dirs: PROJECT_SKILL_DIRS });
    }
    return readSkills(sources);
  }

  /** The `skill` tool over the skills the rules do not deny (`skill` on the name); none when none is left. */
  async tools(location: ResolvedLocation, rulesets: PermissionRuleset[]): Promise<AnyTool[]> {
    const allowed = (await this.list(location)).filter(
      (skill) => evaluate('skill', skill.name, ...rulesets).effect !== 'deny',
    );
    return allowed.length ? [skillTool(allowed) as AnyTool] : [];
  }
}
