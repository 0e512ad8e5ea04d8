import { resultsAt } from './answer-fields';
import { SearchProtocol } from './web-search.types';

/** SearXNG (self-hosted, no key): `GET /search?q=&format=json`; `results[].content`. It takes no count: cut here. */
export const searxng: SearchProtocol = {
  needsKey: false,
  request(baseUrl, _apiKey, query) {
    const params = new URLSearchParams({ q: query, format: 'json' });
    return { method: 'GET', url: `${baseUrl}/search?${params}`, headers: { accept: 'application/json' } };
  },
  results: (answer) => resultsAt(answer, ['results'], 'content'),
};
