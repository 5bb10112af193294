// [#42.2] The elicitation form's schema handling (src/core/mcp/elicitForm.ts), plain Node: which
// requested schemas are asked (MCP 2025-11-25: single and multi select, titled or not, string formats),
// what is refused while typing or choosing, and the host's last check of the answer before it is sent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldsOf, matchesFormat, problemWith, problemWithChoices, problemWithContent, type Field } from '../../../src/core/mcp/elicitForm';

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const fields = (schema: Record<string, unknown>): Field[] => {
  const f = fieldsOf(schema);
  assert.ok(Array.isArray(f), `accepted: ${String(f)}`);
  return f;
};

describe('[#42.2] elicitation schemas accepted', () => {
  test('[#42.2] untitled and titled multi-select (items enum, items anyOf/oneOf) become multi fields with their choices, bounds and default', () => {
    const [plain, titled, viaOneOf] = fields(
      obj(
        {
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['b'] },
          sizes: { type: 'array', title: 'Sizes', items: { anyOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] } },
          more: { type: 'array', items: { oneOf: [{ const: 'x', title: 'Ex' }] } },
        },
        ['tags'],
      ),
    );
    assert.deepEqual(plain, {
      name: 'tags',
      kind: 'multi',
      title: 'tags',
      required: true,
      secret: false,
      default: ['b'],
      options: [
        { value: 'a', label: 'a' },
        { value: 'b', label: 'b' },
        { value: 'c', label: 'c' },
      ],
      minItems: 1,
      maxItems: 2,
    });
    assert.equal(titled!.kind, 'multi');
    assert.deepEqual(titled!.options, [
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
    assert.deepEqual(viaOneOf!.options, [{ value: 'x', label: 'Ex' }]);
  });

  test('[#42.2] single select: enum with legacy enumNames, oneOf of const/title, and a plain enum', () => {
    const [legacy, titled, bare] = fields(
      obj({
        plan: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Basic', 'Pro'] },
        region: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us' }] },
        color: { type: 'string', enum: ['red'] },
      }),
    );
    assert.deepEqual(
      [legacy, titled, bare].map((f) => [f!.kind, f!.options]),
      [
        ['enum', [{ value: 'p1', label: 'Basic' }, { value: 'p2', label: 'Pro' }]],
        ['enum', [{ value: 'eu', label: 'Europe' }, { value: 'us', label: 'us' }]],
        ['enum', [{ value: 'red', label: 'red' }]],
      ],
    );
  });

  test('[#42.2] string formats email, uri, date, date-time are kept on the field; password only masks', () => {
    const f = fields(obj({ a: { type: 'string', format: 'email' }, b: { type: 'string', format: 'uri' }, c: { type: 'string', format: 'date' }, d: { type: 'string', format: 'date-time' }, e: { type: 'string', format: 'password' } }));
    assert.deepEqual(
      f.map((x) => [x.format, x.secret]),
      [
        ['email', false],
        ['uri', false],
        ['date', false],
        ['date-time', false],
        [undefined, true],
      ],
    );
  });

  test('[#42.2] declined with a reason naming the field: another format, a rule not checked, a free list, non-text choices, duplicate choices, bounds no choice can meet', () => {
    const reasons = [
      obj({ host: { type: 'string', format: 'ipv4' } }),
      obj({ n: { type: 'integer', multipleOf: 2 } }),
      obj({ code: { type: 'string', pattern: '^(a+)+$' } }),
      obj({ list: { type: 'array', items: { type: 'string' } } }),
      obj({ list: { type: 'array', items: { type: 'number', enum: [1, 2] } } }),
      obj({ list: { type: 'array', items: { enum: ['a', 'a'] } } }),
      obj({ list: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 3 } }),
      obj({ list: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 2, maxItems: 1 } }),
      obj({ list: { type: 'array', items: { enum: ['a'] }, maxItems: 1.5 } }),
      obj({ list: { type: 'array', items: { enum: ['a'], pattern: 'a' } } }),
      obj({ num: { type: 'integer', enum: ['a'] } }),
    ].map((s) => fieldsOf(s));
    assert.deepEqual(reasons, [
      'Field host has a rule (format "ipv4") that this form cannot check.',
      'Field n has a rule (multipleOf) that this form cannot check.',
      'Field code has a rule (pattern) that this form cannot check.',
      'Field list is a list without choices, which this form cannot ask.',
      'Field list has choices this form cannot offer.',
      'Field list has choices this form cannot offer.',
      'Field list has bounds on its choices that no answer can meet.',
      'Field list has bounds on its choices that no answer can meet.',
      'Field list has bounds on its choices that no answer can meet.',
      'Field list has a rule (pattern) that this form cannot check.',
      'Field num has choices this form cannot offer.',
    ]);
  });
});

describe('[#42.2] string formats checked', () => {
  test('[#42.2] email', () => {
    for (const ok of ['ada@example.com', 'a.b+c@mail.example.co.uk']) assert.equal(matchesFormat('email', ok), true, ok);
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a@b@example.com', 'ada @example.com', 'ada@-x.com', 'a..b@example.com', 'ada@example.123', `${'a'.repeat(65)}@example.com`]) assert.equal(matchesFormat('email', bad), false, bad);
  });
  test('[#42.2] uri: absolute, with a scheme, no spaces', () => {
    for (const ok of ['https://example.com/page?q=1', 'mailto:ada@example.com', 'urn:isbn:0451450523']) assert.equal(matchesFormat('uri', ok), true, ok);
    for (const bad of ['example.com/page', '/relative', 'https://exa mple.com', 'http://', '1http://x.com']) assert.equal(matchesFormat('uri', bad), false, bad);
  });
  test('[#42.2] date: YYYY-MM-DD with a real day (leap years)', () => {
    for (const ok of ['2026-11-29', '2028-02-29', '2000-02-29']) assert.equal(matchesFormat('date', ok), true, ok);
    for (const bad of ['2026-02-29', '1900-02-29', '2026-13-01', '2026-04-31', '2026-1-1', '29.11.2026', '2026-11-29T00:00:00Z']) assert.equal(matchesFormat('date', bad), false, bad);
  });
  test('[#42.2] date-time: RFC 3339 with Z or an offset', () => {
    for (const ok of ['2026-11-29T14:00:00Z', '2026-11-29t14:00:00.123z', '2026-11-29T14:00:00+01:00', '2026-11-29T23:59:59-12:30']) assert.equal(matchesFormat('date-time', ok), true, ok);
    for (const bad of ['2026-11-29T14:00:00', '2026-11-29 14:00:00Z', '2026-11-29T24:00:00Z', '2026-11-29T14:60:00Z', '2026-02-30T10:00:00Z', '2026-11-29T14:00:00+1:00']) assert.equal(matchesFormat('date-time', bad), false, bad);
  });
  test('[#42.2] a long hostile text is refused by every format, and problemWith names the format', () => {
    const long = `${'a'.repeat(20_000)}@example.com`;
    for (const f of ['email', 'uri', 'date', 'date-time'] as const) assert.equal(matchesFormat(f, long), false, f);
    const [mail] = fields(obj({ mail: { type: 'string', format: 'email', minLength: 3 } }, ['mail']));
    assert.deepEqual(
      ['', 'ab', 'abc', 'ada@example.com'].map((t) => problemWith(mail!, t)),
      ['mail is required.', 'Enter at least 3 characters.', 'Enter an email address, such as name@example.com.', undefined],
    );
  });
  test('[#42.2] minLength/maxLength count characters (code points), not UTF-16 units', () => {
    const [f] = fields(obj({ s: { type: 'string', maxLength: 2 } }));
    assert.equal(problemWith(f!, '😀😀'), undefined);
    assert.equal(problemWith(f!, '😀😀😀'), 'Enter at most 2 characters.');
  });
});

describe('[#42.2] multi-select choices checked', () => {
  const [req, opt, free] = fields(
    obj(
      {
        req: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
        opt: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2 },
        free: { type: 'array', items: { enum: ['a', 'b'] } },
      },
      ['req'],
    ),
  );
  test('[#42.2] minItems and maxItems; an optional field that cannot be empty may be left out with nothing chosen', () => {
    assert.deepEqual(
      [[], ['a'], ['a', 'b'], ['a', 'b', 'c']].map((v) => problemWithChoices(req!, v)),
      ['Choose at least 1.', undefined, undefined, 'Choose at most 2.'],
    );
    assert.deepEqual(
      [[], ['a'], ['a', 'b']].map((v) => problemWithChoices(opt!, v)),
      [undefined, 'Choose at least 2.', undefined],
    );
    assert.equal(problemWithChoices(free!, []), undefined);
  });
});

describe('[#42.2] the host checks the answer again before sending it', () => {
  const f = fields(
    obj(
      {
        name: { type: 'string', maxLength: 5 },
        mail: { type: 'string', format: 'email' },
        n: { type: 'integer', minimum: 1, maximum: 9 },
        ok: { type: 'boolean' },
        color: { type: 'string', enum: ['red', 'blue'] },
        tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }, { const: 'b', title: 'B' }] }, minItems: 1, maxItems: 1 },
        withDefault: { type: 'string', default: 'x' },
        many: { type: 'array', items: { enum: ['a', 'b'] } },
      },
      ['name', 'tags', 'withDefault'],
    ),
  );
  const good = { name: 'Ada', mail: 'ada@example.com', n: 3, ok: true, color: 'red', tags: ['b'] };
  test('[#42.2] a matching answer passes (a required field with a default may be left out: the client fills it in)', () => {
    assert.equal(problemWithContent(f, good), undefined);
  });
  test('[#42.2] anything the requested schema does not allow is refused, naming the field and never the value', () => {
    const cases: Array<[Record<string, unknown> | unknown, string]> = [
      [{ ...good, extra: 1 }, 'The value of extra does not match the form.'],
      [{ ...good, name: undefined }, 'The value of name does not match the form.'],
      [(({ name: _n, ...rest }) => rest)(good), 'name is required.'],
      [{ ...good, name: 'too-long' }, 'The value of name does not match the form.'],
      [{ ...good, mail: 'not-an-address' }, 'The value of mail does not match the form.'],
      [{ ...good, n: 3.5 }, 'The value of n does not match the form.'],
      [{ ...good, n: '3' }, 'The value of n does not match the form.'],
      [{ ...good, n: 10 }, 'The value of n does not match the form.'],
      [{ ...good, ok: 'yes' }, 'The value of ok does not match the form.'],
      [{ ...good, color: 'green' }, 'The value of color does not match the form.'],
      [{ ...good, tags: ['c'] }, 'The value of tags does not match the form.'],
      [{ ...good, tags: 'a' }, 'The value of tags does not match the form.'],
      [{ ...good, tags: [] }, 'The value of tags does not match the form.'],
      [{ ...good, tags: ['a', 'b'] }, 'The value of tags does not match the form.'],
      [{ ...good, many: ['a', 'a'] }, 'The value of many does not match the form.'],
      [['a'], 'The requested form is not a list of fields.'],
    ];
    for (const [content, reason] of cases) assert.equal(problemWithContent(f, content), reason, JSON.stringify(content));
    assert.ok(!cases.some(([c]) => String(problemWithContent(f, c)).includes('not-an-address')));
  });
});
