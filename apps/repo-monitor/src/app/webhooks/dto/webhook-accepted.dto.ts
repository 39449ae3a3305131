import { ApiProperty } from '@nestjs/swagger';

export class WebhookAcceptedDto {
  @ApiProperty({ enum: ['accepted', 'duplicate'], description: 'duplicate: this delivery id was received before and is not processed again' })
  status!: 'accepted' | 'duplicate';

  @ApiProperty({ description: 'The X-GitHub-Delivery id' })
  delivery_id!: string;
}
