import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findImageRefAt, findImageRefs, findImagesNeedingAlt, resolveJsxImportedSrc, syntaxForLanguage } from '../../../src/core/content/imageRefs';

/** Offset of the first occurrence of `needle` in `text`, plus `delta`. */
function at(text: string, needle: string, delta = 0): number {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `fixture lacks ${needle}`);
  return i + delta;
}

describe('syntaxForLanguage', () => {
  test('maps the content languages and ignores others', () => {
    assert.equal(syntaxForLanguage('markdown'), 'markdown');
    assert.equal(syntaxForLanguage('html'), 'html');
    assert.equal(syntaxForLanguage('php'), 'html');
    assert.equal(syntaxForLanguage('javascriptreact'), 'jsx');
    assert.equal(syntaxForLanguage('typescriptreact'), 'jsx');
    assert.equal(syntaxForLanguage('python'), undefined);
  });
});

describe('Markdown image under the cursor', () => {
  const md = 'Intro ![A cat](img/cat.png "Title") and ![](https://x.test/dog.jpg) end.\n';

  test('finds the image whose text contains the cursor, with src and alt', () => {
    const ref = findImageRefAt(md, 'markdown', at(md, 'cat.png'));
    assert.ok(ref);
    assert.equal(ref.src, 'img/cat.png');
    assert.equal(ref.alt.kind === 'present' && ref.alt.text, 'A cat');
    assert.equal(md.slice(ref.range.start, ref.range.end), '![A cat](img/cat.png "Title")');
  });

  test('the second image, with empty alt, is found at its own position', () => {
    const ref = findImageRefAt(md, 'markdown', at(md, 'dog'));
    assert.ok(ref);
    assert.equal(ref.src, 'https://x.test/dog.jpg');
    assert.equal(ref.alt.kind === 'present' && ref.alt.text, '');
  });

  test('a cursor just after the closing paren still counts, plain text does not', () => {
    const end = at(md, '"Title")', '"Title")'.length);
    assert.ok(findImageRefAt(md, 'markdown', end));
    assert.equal(findImageRefAt(md, 'markdown', 2), undefined);
  });

  test('angle-bracket destinations, escaped brackets in alt and parens in the URL', () => {
    const text = '![a \\[b\\] c](<my pic.png>) ![x](a_(1).png)';
    const refs = findImageRefs(text, 'markdown');
    assert.equal(refs.length, 2);
    assert.equal(refs[0].src, 'my pic.png');
    assert.equal(refs[0].alt.kind === 'present' && refs[0].alt.text, 'a [b] c');
    assert.equal(refs[1].src, 'a_(1).png');
  });

  test('reference-style images resolve their definition', () => {
    const text = 'See ![][logo] here.\n\n[logo]: ./logo.svg "Logo"\n';
    const ref = findImageRefAt(text, 'markdown', at(text, '![]'));
    assert.ok(ref);
    assert.equal(ref.src, './logo.svg');
  });

  test('images inside fenced code and inline code are ignored', () => {
    const text = '```md\n![](in-fence.png)\n```\nand `![](inline.png)` but ![](real.png)\n';
    const refs = findImageRefs(text, 'markdown');
    assert.deepEqual(refs.map((r) => r.src), ['real.png']);
  });

  test('an escaped \\![ is not an image, and a raw <img> in Markdown is', () => {
    const text = '\\![](no.png) <img src="yes.png">';
    assert.deepEqual(findImageRefs(text, 'markdown').map((r) => [r.syntax, r.src]), [['html', 'yes.png']]);
  });
});

describe('HTML and PHP <img> under the cursor', () => {
  test('finds src and a missing alt, with the insertion point after src', () => {
    const html = '<p><img class="hero" src="/img/hero.jpg" width=300></p>';
    const ref = findImageRefAt(html, 'html', at(html, 'hero.jpg'));
    assert.ok(ref);
    assert.equal(ref.src, '/img/hero.jpg');
    assert.equal(ref.alt.kind, 'missing');
    assert.equal(ref.alt.kind === 'missing' && ref.alt.insertAt, at(html, '"/img/hero.jpg"', '"/img/hero.jpg"'.length));
  });

  test('is case-insensitive and decodes entities in values', () => {
    const html = "<IMG SRC='a.png?x=1&amp;y=2' ALT='Tom &amp; Jerry'>";
    const ref = findImageRefs(html, 'html')[0];
    assert.equal(ref.src, 'a.png?x=1&y=2');
    assert.equal(ref.alt.kind === 'present' && ref.alt.text, 'Tom & Jerry');
    assert.equal(ref.alt.kind === 'present' && ref.alt.quote, "'");
  });

  test('a PHP echo with ?> inside an attribute does not end the tag, and makes src dynamic', () => {
    const php = '<img src="<?php echo esc_url( $img["url"] ); ?>" alt="" class="x"> after';
    const refs = findImageRefs(php, 'html');
    assert.equal(refs.length, 1);
    assert.equal(php.slice(refs[0].range.start, refs[0].range.end), '<img src="<?php echo esc_url( $img["url"] ); ?>" alt="" class="x">');
    assert.equal(refs[0].src, undefined);
    assert.equal(refs[0].alt.kind === 'present' && refs[0].alt.text, '');
  });

  test('a bare alt attribute counts as empty, and commented-out tags are skipped', () => {
    const html = '<!-- <img src="old.png"> --><img alt src="b.png" />';
    const refs = findImageRefs(html, 'html');
    assert.equal(refs.length, 1);
    assert.equal(refs[0].src, 'b.png');
    assert.equal(refs[0].alt.kind === 'present' && refs[0].alt.text, '');
  });

  test('<imgx> and <image> are not images', () => {
    assert.equal(findImageRefs('<imgx src="a"><image src="b">', 'html').length, 0);
  });
});

describe('JSX <img src={...}> under the cursor', () => {
  test('string literal expressions are read, JS escapes included', () => {
    const jsx = 'return <img src={"/a.png"} alt={\'It\\\'s\'} />;';
    const ref = findImageRefAt(jsx, 'jsx', at(jsx, 'a.png'));
    assert.ok(ref);
    assert.equal(ref.src, '/a.png');
    assert.equal(ref.alt.kind === 'present' && ref.alt.text, "It's");
  });

  test('a > inside the expression does not end the tag, and an imported name resolves to its module', () => {
    const jsx = "import hero from './hero.webp';\nconst C = () => <img src={hero} onClick={() => a > b} className=\"x\" />;\n";
    const ref = findImageRefAt(jsx, 'jsx', at(jsx, 'src={hero}'));
    assert.ok(ref);
    assert.equal(jsx.slice(ref.range.end - 2, ref.range.end), '/>');
    assert.equal(ref.src, undefined);
    assert.equal(resolveJsxImportedSrc(jsx, ref), './hero.webp');
    assert.equal(ref.alt.kind, 'missing');
  });

  test('Next.js <Image> counts, a component named <Img> does not, and a dynamic alt is present', () => {
    const jsx = '<Image src="/x.png" alt={t("hero")} /><Img src="/y.png" />';
    const refs = findImageRefs(jsx, 'jsx');
    assert.equal(refs.length, 1);
    assert.equal(refs[0].alt.kind === 'present' && refs[0].alt.text, undefined);
  });
});

describe('images needing alt (diagnostics)', () => {
  test('Markdown: empty alt is reported, filled alt is not', () => {
    const text = '![](a.png) ![ ](b.png) ![ok](c.png)';
    assert.deepEqual(findImagesNeedingAlt(text, 'markdown').map((p) => [p.ref.src, p.problem]), [
      ['a.png', 'empty'],
      ['b.png', 'empty'],
    ]);
  });

  test('HTML: missing and empty alts are reported, decorative images and dynamic alts are not', () => {
    const html = [
      '<img src="a.png">',
      '<img src="b.png" alt="">',
      '<img src="c.png" alt="" role="presentation">',
      '<img src="d.png" alt="" aria-hidden="true">',
      '<img src="e.png" alt="<?= $alt ?>">',
      '<img src="f.png" alt="fine">',
    ].join('\n');
    assert.deepEqual(findImagesNeedingAlt(html, 'html').map((p) => [p.ref.src, p.problem]), [
      ['a.png', 'missing'],
      ['b.png', 'empty'],
    ]);
  });
});
