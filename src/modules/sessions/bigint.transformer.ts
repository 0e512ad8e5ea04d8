import { ValueTransformer } from 'typeorm';

/** `bigint` columns (epoch ms, token counts, micro-cents) as JS numbers: all stay far below 2^53. */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
