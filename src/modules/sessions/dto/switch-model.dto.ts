import { Type } from 'class-transformer';
import { IsDefined, ValidateNested } from 'class-validator';
import { ModelRefDto } from './model-ref.dto';

export class SwitchModelDto {
  @IsDefined()
  @ValidateNested()
  @Type(() => ModelRefDto)
  model!: ModelRefDto;
}
