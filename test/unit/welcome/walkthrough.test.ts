import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES, readManifest } from '../../../scripts/manifestNls.mjs';

const ROOT = join(__dirname, '..', '..', '..');
interface Step { id: string; title: string; description: string; media: { markdown?: string; image?: unknown }; completionEvents: string[] }
type Manifest = {
  contributes: { walkthroughs: Array<{ id: string; steps: Step[] }>; commands: Array<{ command: string }>; views: Record<string, Array<{ id: string }>> };
};
// As the editor shows it: in English, and in each translation (package.nls.<locale>.json names its own pages).
const manifest = readManifest<Manifest>();
const translated = LOCALES.map((locale) => ({ locale, manifest: readManifest<Manifest>({ locale }) }));
const declared = new Set(manifest.contributes.commands.map((c) => c.command));
const views = Object.values(manifest.contributes.views).flat().map((v) => v.id);
// VS Code's own commands a step may name (checked against VS Code 1.139's workbench when this was written).
const EDITOR_COMMANDS = new Set(['workbench.action.openSettings', 'workbench.action.chat.manage', 'workbench.action.chat.open', ...views.map((v) => `${v}.focus`)]);

/** The source files under src/, as one text, to find where a context key is set or an operation recorded. */
function sources(dir = join(ROOT, 'src')): string {
  return readdirSync(dir).map((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : n.endsWith('.ts') ? readFileSync(p, 'utf8') : '';
  }).join('\n');
}

describe('[#30.1] the Get Started walkthrough', () => {
  const walk = manifest.contributes.walkthroughs.find((w) => w.id === 'aiGateway.getStarted');

  test('[#30.1] covers the first hour in order: key, model, chat, alt text, tool, spend, VS Code chat, the gateway in your code', () => {
    assert.ok(walk, 'contributes.walkthroughs has aiGateway.getStarted');
    assert.deepEqual(walk.steps.map((s) => s.id), ['connect', 'pickModel', 'chat', 'altText', 'runTool', 'spend', 'vscodeChat', 'inYourCode']);
  });

  test('[#30.1] every step completes itself: each event names a declared command or a context key the extension sets', () => {
    const src = sources();
    for (const step of walk!.steps) {
      assert.ok(step.completionEvents.length > 0, `${step.id} has completion events`);
      for (const ev of step.completionEvents) {
        const [kind, arg] = [ev.slice(0, ev.indexOf(':')), ev.slice(ev.indexOf(':') + 1)];
        if (kind === 'onCommand') assert.ok(declared.has(arg), `${step.id}: ${arg} is a declared command`);
        else if (kind === 'onContext') {
          const used = /^aiGateway\.used\.(\w+)$/.exec(arg);
          const done = /^aiGateway\.done\.(\w+)$/.exec(arg);
          if (done) assert.ok(src.includes(`markStepDone('${done[1]}')`) && done[1] === step.id, `${step.id}: a feature calls markStepDone('${done[1]}')`);
          else if (used) {
            // usedContextKey('chat-panel') is 'aiGateway.used.chatPanel': the operation must be recorded somewhere.
            const operation = used[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
            assert.ok(src.includes(`operation: '${operation}'`), `${step.id}: a reply is recorded with operation '${operation}'`);
          } else assert.ok(src.includes(`'setContext', '${arg}'`), `${step.id}: the extension sets ${arg}`);
        } else assert.fail(`${step.id}: unexpected completion event ${ev}`);
      }
    }
  });

  test('[#30.1] every step has its page, shipped in the VSIX, and every command link in it works (in English and each translation)', () => {
    const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8');
    const all = [{ locale: 'en', manifest }, ...translated].flatMap((m) => m.manifest.contributes.walkthroughs.find((w) => w.id === 'aiGateway.getStarted')!.steps);
    for (const step of all) {
      const md = step.media.markdown;
      assert.ok(md && existsSync(join(ROOT, md)), `${step.id}: ${md} exists`);
      assert.ok(ignore.includes(`!${md.replace(/[^/]+$/, '*.md')}`), `${md} ships`);
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
      assert.ok(links.length > 0, `${step.id} offers an action`);
      for (const id of links) assert.ok(declared.has(id) || EDITOR_COMMANDS.has(id), `${step.id}: ${id} exists`);
    }
  });

  test('[#30.1] a settings link never names a machine-scoped setting: VS Code\'s User tab cannot show it in a remote window', () => {
    const properties = (manifest.contributes as unknown as { configuration: { properties: Record<string, { scope?: string }> } }).configuration.properties;
    const all = [{ locale: 'en', manifest }, ...translated].flatMap((m) => m.manifest.contributes.walkthroughs.find((w) => w.id === 'aiGateway.getStarted')!.steps);
    for (const step of all) {
      for (const m of step.description.matchAll(/\]\(command:workbench\.action\.openSettings\?([^)\s]+)\)/g)) {
        const [query] = JSON.parse(decodeURIComponent(m[1])) as [string];
        assert.ok(!properties[query]?.scope?.startsWith('machine'), `${step.id}: ${query} is machine-scoped; link to a command that opens it where it lives`);
      }
    }
    // The gateway address link goes through the extension's own command.
    assert.ok(all.filter((s) => s.id === 'connect').every((s) => s.description.includes('(command:aiGateway.welcome.gatewayAddress)')));
    assert.equal(properties['aiGateway.baseUrl'].scope, 'machine');
  });
});

describe('[#41.12] no truncated walkthrough text, no squeezed views', () => {
  // Measured in the sandbox's Welcome page (VS Code 1.139, 1280 px wide): a step's title was cut after 30
  // characters ("Use the gateway in VS Code's c…"), the walkthrough's subtitle after about 75.
  const TITLE_MAX = 28;
  const DESCRIPTION_MAX = 64;
  for (const m of [{ locale: 'en', manifest }, ...translated]) {
    test(`[#41.12] ${m.locale}: step titles fit in ${TITLE_MAX} characters, the subtitle in ${DESCRIPTION_MAX}`, () => {
      const w = m.manifest.contributes.walkthroughs.find((x) => x.id === 'aiGateway.getStarted')! as unknown as { title: string; description: string; steps: Step[] };
      for (const s of w.steps) assert.ok([...s.title].length <= TITLE_MAX, `${m.locale} ${s.id}: "${s.title}" (${[...s.title].length})`);
      assert.ok([...w.title].length <= 32, w.title);
      assert.ok([...w.description].length <= DESCRIPTION_MAX, `${m.locale}: "${w.description}" (${[...w.description].length})`);
    });
  }

  // How VS Code 1.139 sizes the AI Gateway side bar (ViewPaneContainer.computeInitialSizes, SplitView): at the
  // first layout each shown view gets sideBar * initialSize / (sum of the views' initialSize, 20 for a view
  // without one), collapsed ones included in the sum, then clamped: a folded view is its header (28 px), an
  // open one at least header + 120 px. A view that starts folded gets only that minimum (148 px, five rows)
  // the first time it is opened, whatever its initialSize; after that it reopens at its last height. So the
  // catalog starts open under the chat, sized here; the side bar's heights are the journeys' (newcomer).
  type View = { id: string; initialSize?: number; visibility?: string };
  const list = manifest.contributes.views.aiGateway as View[];
  const HEADER = 28;
  const ROW = 22;
  /** Models' and Chat's heights at the first layout of a side bar `height` px tall. */
  const firstLayout = (height: number): { models: number; chat: number } => {
    const weight = (v: View): number => v.initialSize ?? 20;
    const sum = list.reduce((n, v) => n + weight(v), 0);
    const folded = list.filter((v) => v.visibility === 'collapsed').length;
    const models = Math.max(HEADER + 120, (height * weight(list.find((v) => v.id === 'aiGateway.models')!)) / sum);
    return { models, chat: height - folded * HEADER - models };
  };

  test('[#41.12] the Chat view opens first, the catalog open under it; Tools, Knowledge and Agents start as headers', () => {
    assert.deepEqual(list.map((v) => v.id), ['aiGateway.chat', 'aiGateway.models', 'aiGateway.tools', 'aiGateway.knowledge', 'aiGateway.agents']);
    assert.equal(list[0].visibility ?? 'visible', 'visible');
    assert.equal(list[1].visibility ?? 'visible', 'visible', 'a catalog folded at first opens at VS Code\'s minimum, five rows');
    for (const v of list.slice(2)) assert.equal(v.visibility, 'collapsed', `${v.id} starts collapsed`);
    // A view without an initialSize weighs 20 beside the others (last session's 3 and 5 squeezed the chat).
    for (const v of list) assert.ok(Number.isInteger(v.initialSize) && v.initialSize! > 0, `${v.id}: initialSize ${v.initialSize}`);
  });

  test('[#41.12] first layout: 10 catalog rows and 150 px of chat messages in a 1280 x 800 window; 6 rows and 50 px in 1024 x 600', () => {
    // Side bar heights and the chat's own height around its messages (title, message box, status lines),
    // measured in VS Code 1.139 (newcomer journey): 699 and 499 px; 157 px at the default width, 154 at 240 px.
    const cases = [{ height: 699, rows: 10, messages: 150, around: 157 }, { height: 499, rows: 6, messages: 50, around: 154 }];
    for (const c of cases) {
      const { models, chat } = firstLayout(c.height);
      assert.ok(Math.floor((models - HEADER) / ROW) >= c.rows, `${c.height} px: the catalog is ${models} px`);
      assert.ok(chat - c.around >= c.messages, `${c.height} px: the chat is ${chat} px`);
    }
  });
});
