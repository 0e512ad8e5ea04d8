import { Injectable } from '@nestjs/common';
import { LocationConfigService } from '../../location-config/location-config.service';
import { ResolvedLocation } from '../../locations/location.types';
import { AnyTool } from './tool.types';
import { webSearchTool } from './websearch.tool';

/**
 * The `websearch` tool of a location: offered when its config names a search provider (a file's `websearch`, or
 * the console's while the instance is signed in to one whose workspace enables web search).
 */
@Injectable()
export class WebSearchTools {
  constructor(private readonly configs: LocationConfigService) {}

  async forLocation(location: ResolvedLocation): Promise<AnyTool[]> {
    const { websearch } = (await this.configs.get(location)).merged;
    return websearch ? [webSearchTool(websearch, (name) => this.configs.env(name))] : [];
  }
}
