export class GatewayModelDto {
  id!: string;
  object!: 'model';
  created!: number;
  /** The provider id. */
  owned_by!: string;
  /** Anthropic's list shape, so its SDK reads the same list. */
  type!: 'model';
  display_name!: string;
  created_at!: string;
}

/** OpenAI's model list shape. */
export class GatewayModelListDto {
  object!: 'list';
  data!: GatewayModelDto[];
  has_more!: boolean;
  /** Anthropic's paging members: the first and last ids of the page (the whole list is one page). */
  first_id!: string | null;
  last_id!: string | null;
}
