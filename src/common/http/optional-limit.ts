import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** An optional count in a query string, a whole number from 1 to `max` (the text is read as a number first). */
export const OptionalLimit = (max: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: Number, minimum: 1, maximum: max }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(max),
  );
