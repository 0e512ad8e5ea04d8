import { PlainRequest } from '@/common/http/http';
import { bearerToken } from './bearer-token';

function request(extra: { query?: unknown; body?: unknown } = {}): PlainRequest {
  return { id: 'req', method: 'GET', url: '/console/api/me', headers: {}, ip: '127.0.0.1', ...extra };
}

describe('bearerToken', () => {
  it('reads the token of "Bearer <token>", the scheme in any case', () => {
    expect(bearerToken(request(), 'Bearer oc_sk_abc')).toBe('oc_sk_abc');
    expect(bearerToken(request(), 'bearer oc_sk_abc')).toBe('oc_sk_abc');
  });

  it('has none for another scheme, extra spaces or a token with a space', () => {
    for (const header of [
      'Basic b2M6eA==',
      'Bearer',
      'Bearer  oc_sk_abc',
      'Bearer oc_sk_abc ',
      'Bearer a b',
      '',
    ])
      expect(bearerToken(request(), header)).toBeUndefined();
  });

  it('has none when the query or the body carries an access_token too', () => {
    expect(bearerToken(request({ query: { access_token: 'x' } }), 'Bearer oc_sk_abc')).toBeUndefined();
    expect(bearerToken(request({ body: { access_token: 'x' } }), 'Bearer oc_sk_abc')).toBeUndefined();
    expect(bearerToken(request({ query: {}, body: { name: 'k' } }), 'Bearer oc_sk_abc')).toBe('oc_sk_abc');
  });
});
