export class GatewayModelDto {
  id!: string;
  object!: 'model';
  created!: number;
  /** The provider id. */
  owned_by!: string;
}

/** OpenAI's model list shape. */
export class GatewayModelListDto {
  object!: 'list';
  data!: GatewayModelDto[];
}
