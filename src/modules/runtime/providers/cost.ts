import { ModelCost } from './provider-config';
import { StepTokens } from './step.types';

/**
 * The price of one step in micro-cents (an integer; 1 USD = 10^8). Prices are USD per million tokens, so a
 * token costs `price * 100` micro-cents. Cache reads and writes are charged at their own price when configured,
 * else at the input price. Reasoning tokens are part of `output`. A model without `cost` is free.
 */
export function cost(price: ModelCost | undefined, tokens: StepTokens): number {
  if (!price) return 0;
  const microCents =
    tokens.input * price.input +
    tokens.output * price.output +
    tokens.cache.read * (price.cache_read ?? price.input) +
    tokens.cache.write * (price.cache_write ?? price.input);
  return Math.round(microCents * 100);
}
