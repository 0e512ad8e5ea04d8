import { resultsAt } from './answer-fields';
import { SearchProtocol } from './web-search.types';

/** Tavily: `POST /search` `{query, max_results}` with `Authorization: Bearer`; `results[].content`. */
export const tavily: SearchProtocol = {
  defaultBaseUrl: 'https://api.tavily.com',
  needsKey: true,
  request(baseUrl, apiKey, query, max) {
    return {
      method: 'POST',
      url: `${baseUrl}/search`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey ?? ''}` },
      body: JSON.stringify({ query, max_results: max }),
    };
  },
  results: (answer) => resultsAt(answer, ['results'], 'content'),
};
