import { resultsAt } from './answer-fields';
import { SearchProtocol } from './web-search.types';

/** Characters of each page's text Exa returns: a snippet, not the page (the model fetches what it wants). */
const TEXT_CHARS = 500;

/** Exa: `POST /search` `{query, numResults, contents: {text}}` with `x-api-key`; `results[].text`. */
export const exa: SearchProtocol = {
  defaultBaseUrl: 'https://api.exa.ai',
  needsKey: true,
  request(baseUrl, apiKey, query, max) {
    return {
      method: 'POST',
      url: `${baseUrl}/search`,
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey ?? '' },
      body: JSON.stringify({ query, numResults: max, contents: { text: { maxCharacters: TEXT_CHARS } } }),
    };
  },
  results: (answer) => resultsAt(answer, ['results'], 'text'),
};
