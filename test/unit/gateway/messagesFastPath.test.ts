/**
 * The messages route's compact text-delta reader (messagesWire.ts compactTextDelta, issue 40 item 13):
 * wherever it answers, its answer is JSON.parse's, key order included; it answers for every text delta
 * in the compact form a serializer writes; and anything else (whitespace, other keys, a malformed
 * literal) is left to JSON.parse, so the codec's verdict on a hostile event is unchanged.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compactTextDelta, messagesCodec } from '../../../src/core/gateway/messagesWire';
import { streamEventError } from '../../../src/core/gateway/sse';
import { GatewayError } from '../../../src/core/http/errors';

const compact = (index: number, text: string): string => JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });

describe('[#40.13] compact text deltas are read as JSON.parse reads them', () => {
  test('[#40.13] hand-written events: plain, escaped, non-ASCII, empty, index 0 and a large index', () => {
    assert.deepStrictEqual(compactTextDelta('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" gateway"}}'), {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: ' gateway' },
    });
    assert.deepStrictEqual(compactTextDelta('{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"a\\n\\"b\\" \\u00e9 \\ud83d\\ude00"}}')?.delta, { type: 'text_delta', text: 'a\n"b" é 😀' });
    assert.deepStrictEqual(compactTextDelta('{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"東京 ✓"}}')?.delta, { type: 'text_delta', text: '東京 ✓' });
    assert.deepStrictEqual(compactTextDelta('{"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":""}}'), { type: 'content_block_delta', index: 7, delta: { type: 'text_delta', text: '' } });
    assert.equal(compactTextDelta('{"type":"content_block_delta","index":123456789,"delta":{"type":"text_delta","text":"x"}}')?.index, 123456789);
  });

  test('[#40.13] not the compact form, or not JSON: no answer (JSON.parse decides)', () => {
    for (const data of [
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}', // leading zero: not JSON
      '{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"content_block_delta","index":1.5,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"content_block_delta","index":1234567890,"delta":{"type":"text_delta","text":"x"}}', // 10 digits
      '{"type":"content_block_delta","index":,"delta":{"type":"text_delta","text":"x"}}',
      '{"type": "content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}', // whitespace
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","extra":1}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}} ',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"b"}}', // a bare quote
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}', // the escape takes the tail's quote
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\x"}}', // no such escape
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\nb"}}', // a raw line break
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"x"}}',
      '',
    ]) {
      assert.equal(compactTextDelta(data), undefined, data);
    }
  });

  test('[#40.13] property: every text a serializer writes in the compact form is read, equal to JSON.parse', () => {
    fc.assert(
      fc.property(fc.nat({ max: 999_999_999 }), fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) })), (index, text) => {
        const data = compact(index, text);
        const fast = compactTextDelta(data);
        assert.notEqual(fast, undefined, data);
        assert.deepStrictEqual(fast, JSON.parse(data));
        assert.deepStrictEqual(Object.keys(fast ?? {}), ['type', 'index', 'delta']);
      }),
      { numRuns: 3000 },
    );
  });

  test('[#40.13] property: on hostile variations of the form, an answer is always JSON.parse of the same text', () => {
    const piece = fc.oneof(
      fc.constantFrom('{"type":"content_block_delta","index":', ',"delta":{"type":"text_delta","text":"', '"}}', '"', '\\', '\\"', '\\\\', '\\u', '\\ud800', '00e9', '0', '01', '9', '-', ' ', '\n', '\t', '\u0000', '}', ',', 'é', '😀', '\ud800'),
      fc.string({ maxLength: 4 }),
    );
    const head = '{"type":"content_block_delta","index":';
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (parts, withHead) => {
        const data = (withHead ? head : '') + parts.join('');
        const fast = compactTextDelta(data);
        if (fast === undefined) return;
        assert.deepStrictEqual(fast, JSON.parse(data), data);
      }),
      { numRuns: 20000 },
    );
  });

  test('[#40.13] the codec gives the same event, or the same malformed-event failure, with or without the compact form', () => {
    const codec = messagesCodec('req_1', streamEventError);
    const compactForm = compact(2, 'hi "there"\n');
    const spaced = JSON.stringify(JSON.parse(compactForm), null, 1);
    assert.deepStrictEqual(codec.decode(compactForm), codec.decode(spaced));
    assert.deepStrictEqual(codec.decode(compactForm), JSON.parse(compactForm));
    const broken = codec.decode('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}');
    assert.ok(broken instanceof GatewayError && broken.reason === 'protocol' && broken.partial === true);
  });
});
