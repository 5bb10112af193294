/**
 * What the SSE reader (sse.ts) is told about one route's events: how an event's data decodes and which
 * event ends the stream. Kept apart from sse.ts (which bundles the SSE parser and the error
 * classification) so the wire modules that define codecs (messagesWire.ts) stay light for code that
 * only needs their pure translations (pricing, in the activation bundle).
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { GatewayError } from '../http/errors';

/** Returned by a codec's decode for an event that ends the stream (nothing after it counts). */
export const END_OF_STREAM: unique symbol = Symbol('end of stream');

/** What the events of one route's stream are. */
export interface EventCodec<T> {
  /** True for the event that ends the stream (seen as it is parsed); its data is not decoded. */
  isEnd(event: EventSourceMessage): boolean;
  /**
   * The item an event's data carries; undefined for an event to skip; END_OF_STREAM for an event that
   * ends the stream; or the GatewayError (partial) the event is.
   */
  decode(data: string): T | GatewayError | undefined | typeof END_OF_STREAM;
  /** The end event's name, for the error of a stream cut short ("[DONE]", "message_stop"). */
  endName: string;
}

/** Classifies an event that carries an error (sse.ts streamEventError), given to codecs that need it. */
export type StreamEventError = (data: string, status: number, requestId: string | undefined) => GatewayError;
