import { Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { OutboundHttp } from './outbound-http';
import { OutboundPolicy } from './outbound-policy';
import { outboundConfig, OutboundConfig } from './outbound.config';

/**
 * The one guard of outbound calls a user, a model or a console can aim (connections, web fetches, the console
 * link): the policy, with the operator's allow-list, and the HTTP client dialled through it.
 */
@Global()
@Module({
  imports: [ConfigModule.forFeature(outboundConfig)],
  providers: [
    {
      provide: OutboundPolicy,
      inject: [outboundConfig.KEY],
      useFactory: (config: OutboundConfig) => new OutboundPolicy(config.allow),
    },
    OutboundHttp,
  ],
  exports: [OutboundPolicy, OutboundHttp],
})
export class OutboundModule {}
