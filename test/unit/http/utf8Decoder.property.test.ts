/**
 * The streaming fatal UTF-8 decoder of every body reader (src/core/http/body.ts utf8Decoder) against
 * the reference, one TextDecoder('utf-8', { fatal: true }) fed with `{ stream: true }`: for random
 * byte strings (valid text, byte order marks, and mixes of lead, continuation and never-valid bytes)
 * cut at random places, the same text, or a failure at the same chunk.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidUtf8Error, utf8Decoder } from '../../../src/core/http/body';

type Outcome = { text: string } | { failedAt: number };

function reference(parts: Uint8Array[]): Outcome {
  const d = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  for (let i = 0; i <= parts.length; i++) {
    try {
      text += i < parts.length ? d.decode(parts[i], { stream: true }) : d.decode();
    } catch {
      return { failedAt: i };
    }
  }
  return { text };
}

function decoded(parts: Uint8Array[]): Outcome {
  const d = utf8Decoder();
  let text = '';
  for (let i = 0; i <= parts.length; i++) {
    try {
      text += i < parts.length ? d.decode(parts[i]) : d.end();
    } catch (e) {
      assert.ok(e instanceof InvalidUtf8Error);
      return { failedAt: i };
    }
  }
  return { text };
}

const TEXTS = ['\uFEFFhi', 'a\uFEFFb', 'Grüße 日本語 🎉', '\uFEFF\uFEFF', '', 'data: {"x":"✓"}\n\n'];
// ASCII, lead bytes of 2/3/4-byte forms (with their edge second bytes), continuations, never-valid bytes, BOM bytes.
const BYTES = [0x41, 0xc3, 0xa9, 0xe0, 0xa0, 0x80, 0xed, 0x9f, 0xa0, 0xbf, 0xf0, 0x90, 0xf4, 0x8f, 0x90, 0xf5, 0xc0, 0xc1, 0xff, 0xef, 0xbb];

test('utf8Decoder gives the streaming TextDecoder\'s text, or fails at the same chunk, however the bytes are cut (20000 cases)', () => {
  let seed = 20261124;
  const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  const encoder = new TextEncoder();
  for (let run = 0; run < 20_000; run++) {
    let bytes: Uint8Array;
    if (run % 2 === 0) {
      bytes = encoder.encode(TEXTS[Math.floor(random() * TEXTS.length)] + TEXTS[Math.floor(random() * TEXTS.length)]);
    } else {
      bytes = Uint8Array.from({ length: Math.floor(random() * 10) }, () => BYTES[Math.floor(random() * BYTES.length)]);
    }
    const parts: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; ) {
      const len = Math.floor(random() * 5);
      parts.push(bytes.subarray(at, at + len));
      at += len;
    }
    const hex = parts.map((p) => Buffer.from(p).toString('hex')).join('|');
    assert.deepEqual(decoded(parts), reference(parts), hex);
  }
});

test('utf8Decoder agrees with the streaming TextDecoder on long chunks too (over 4 KiB, not all ASCII: its second decoder), with invalid bytes among them (2000 cases)', () => {
  let seed = 20261125;
  const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  const encoder = new TextEncoder();
  let long = 0;
  for (let run = 0; run < 2000; run++) {
    const segments: Uint8Array[] = [];
    for (let k = 1 + Math.floor(random() * 30); k > 0; k--) {
      if (random() < 0.9) segments.push(encoder.encode(TEXTS[Math.floor(random() * TEXTS.length)].repeat(1 + Math.floor(random() * 300))));
      else segments.push(Uint8Array.from({ length: 1 + Math.floor(random() * 4) }, () => BYTES[Math.floor(random() * BYTES.length)]));
    }
    const bytes = new Uint8Array(segments.reduce((n, s) => n + s.length, 0));
    let at = 0;
    for (const s of segments) {
      bytes.set(s, at);
      at += s.length;
    }
    const parts: Uint8Array[] = [];
    for (let from = 0; from < bytes.length; ) {
      const len = Math.floor(random() * (random() < 0.5 ? 20_000 : 8));
      if (len >= 4096) long++;
      parts.push(bytes.subarray(from, from + len));
      from += len;
    }
    const hex = parts.length < 4 ? parts.map((p) => Buffer.from(p).toString('hex')).join('|') : `run ${run}`;
    assert.deepEqual(decoded(parts), reference(parts), hex);
  }
  assert.ok(long > 1000, `${long} long chunks`);
});
