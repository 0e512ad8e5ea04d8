import { resultsAt } from './answer-fields';
import { SearchProtocol } from './web-search.types';

/** Brave Search's web search: `GET /web/search?q=&count=` with `X-Subscription-Token`; `web.results[]`. */
export const brave: SearchProtocol = {
  defaultBaseUrl: 'https://api.search.brave.com/res/v1',
  needsKey: true,
  request(baseUrl, apiKey, query, max) {
    const params = new URLSearchParams({ q: query, count: String(max) });
    return {
      method: 'GET',
      url: `${baseUrl}/web/search?${params}`,
      headers: { accept: 'application/json', 'x-subscription-token': apiKey ?? '' },
    };
  },
  results: (answer) => resultsAt(answer, ['web', 'results'], 'description'),
};
