/**
 * Finds English text that reaches a user-visible editor API without going through `vscode.l10n.t` /
 * `l10n.t` (issue 30, item 2). It uses the type checker, so it knows WHERE a string goes, not just that
 * a string exists:
 *  - a call argument of a sink function (showInformationMessage and its siblings, new TreeItem(label),
 *    new Diagnostic(range, message), ...), found by the declaration the call resolves to;
 *  - a property whose declaration is a user-visible property of a vscode type (QuickPickItem.label,
 *    InputBoxOptions.prompt, StatusBarItem.tooltip, ProgressOptions.title, ...) or of this project's
 *    wrappers around them (RiskyQuestion, InputStepOptions, ...), in an object literal or an assignment;
 *  - a string returned by a `validateInput` function.
 * At such a position a string literal, a template with text, a `+` concatenation with a literal, or a
 * `const`/object-literal property that holds one (followed one step) is a finding; a call (l10n.t,
 * a formatter, ...) is not. A text is a finding only when it has letters once `$(codicon)` names and
 * `${…}` are removed, so ids such as `'$(key)'` or `'—'` pass. Log lines, command ids and settings never
 * reach these positions, so they are never reported.
 */
import ts from 'typescript';
import { relative, sep } from 'node:path';

export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly sink: string;
}

/** Functions whose string arguments are shown: `Owner.name` (or `name` for a free function) -> argument indexes ('*' = every one). */
const SINK_CALLS: Record<string, readonly number[] | '*'> = {
  'window.showInformationMessage': '*',
  'window.showWarningMessage': '*',
  'window.showErrorMessage': '*',
  'window.showQuickPick': [0],
  'window.setStatusBarMessage': [0],
  'window.createWebviewPanel': [1],
  'TreeItem.constructor': [0],
  'Diagnostic.constructor': [1],
  'Hover.constructor': [0],
  'CodeAction.constructor': [0],
  'MarkdownString.constructor': [0],
  'ChatResponseStream.markdown': [0],
  'ChatResponseStream.progress': [0],
  'ChatResponseStream.warning': [0],
  'ChatResponseStream.anchor': [1],
};

/** User-visible properties: `Owner.property`; the owner is the declaring interface or class ('__type' for an inline type). */
const SINK_PROPS = new Set([
  'MessageOptions.detail',
  'MessageItem.title',
  'QuickPickItem.label',
  'QuickPickItem.description',
  'QuickPickItem.detail',
  'QuickPickOptions.title',
  'QuickPickOptions.placeHolder',
  'InputBoxOptions.title',
  'InputBoxOptions.prompt',
  'InputBoxOptions.placeHolder',
  'QuickInput.title',
  'QuickPick.placeholder',
  'InputBox.placeholder',
  'InputBox.prompt',
  'InputBox.validationMessage',
  'QuickInputButton.tooltip',
  'ProgressOptions.title',
  'StatusBarItem.text',
  'StatusBarItem.tooltip',
  'StatusBarItem.name',
  'TreeItem.label',
  'TreeItem.description',
  'TreeItem.tooltip',
  'TreeItemLabel.label',
  'TreeView.message',
  'TreeView.title',
  'TreeView.description',
  'ViewBadge.tooltip',
  'FileDecoration.tooltip',
  'FileDecoration2.tooltip',
  'Command.title',
  'Command.tooltip',
  'Diagnostic.message',
  'DiagnosticRelatedInformation.message',
  'CodeAction.title',
  'OpenDialogOptions.title',
  'OpenDialogOptions.openLabel',
  'SaveDialogOptions.title',
  'SaveDialogOptions.saveLabel',
  'WebviewPanel.title',
  'LanguageModelToolConfirmationMessages.title',
  'LanguageModelToolConfirmationMessages.message',
  'PreparedToolInvocation.invocationMessage',
  // withProgress's Progress<{ message?: string }>.report
  '__type.message',
  // This project's wrappers (src/platform/safeDialog.ts, src/platform/stepInput.ts, src/platform/errorNotifications.ts).
  'RiskyQuestion.message',
  'RiskyQuestion.detail',
  'RiskyQuestion.safe',
  'RiskyQuestion.risky',
  '__type.action',
  'InputStepOptions.title',
  'InputStepOptions.prompt',
  'InputStepOptions.placeHolder',
  'PickStepOptions.title',
  'PickStepOptions.placeHolder',
  'ErrorNotificationOptions.context',
]);

/** Owners whose `__type` members count: the inline types of these declarations only. */
const INLINE_OWNERS = new Set(['withProgress', 'confirmRisky']);

/** Declared by the vscode API or by this project's own source. */
function isVscodeOrProjectDecl(decl: ts.Node, srcRoot: string): boolean {
  const file = decl.getSourceFile().fileName;
  return isVscodeFile(file) || (file.startsWith(srcRoot) && !file.includes('node_modules'));
}

function isVscodeFile(file: string): boolean {
  return /[\\/]@types[\\/]vscode[\\/]/.test(file);
}

function ownerName(decl: ts.Node): string | undefined {
  const parent = decl.parent;
  if (!parent) return undefined;
  if (ts.isInterfaceDeclaration(parent) || ts.isClassDeclaration(parent)) return parent.name?.text;
  if (ts.isTypeLiteralNode(parent)) {
    // Which declaration holds the inline type: Progress.report's parameter, confirmRisky's parameter.
    let n: ts.Node | undefined = parent.parent;
    while (n && !ts.isMethodSignature(n) && !ts.isFunctionDeclaration(n) && !ts.isMethodDeclaration(n)) n = n.parent;
    if (!n) return undefined;
    const fn = n.name && ts.isIdentifier(n.name) ? n.name.text : '';
    const outer = n.parent && (ts.isInterfaceDeclaration(n.parent) || ts.isClassDeclaration(n.parent)) ? `${n.parent.name?.text}.${fn}` : fn;
    return INLINE_OWNERS.has(outer) ? '__type' : undefined;
  }
  return undefined;
}

function isSinkSymbol(symbol: ts.Symbol | undefined, srcRoot: string): string | undefined {
  for (const decl of symbol?.declarations ?? []) {
    if (!isVscodeOrProjectDecl(decl, srcRoot)) continue;
    const owner = ownerName(decl);
    const key = `${owner}.${symbol!.name}`;
    if (owner && SINK_PROPS.has(key)) return key;
  }
  return undefined;
}

function callSinkName(checker: ts.TypeChecker, call: ts.CallExpression | ts.NewExpression): string | undefined {
  const decl = checker.getResolvedSignature(call)?.getDeclaration();
  if (!decl) return undefined;
  const file = decl.getSourceFile().fileName;
  if (!isVscodeFile(file)) return undefined;
  let name: string;
  if (ts.isConstructorDeclaration(decl)) name = 'constructor';
  else if (decl.name && ts.isIdentifier(decl.name)) name = decl.name.text;
  else return undefined;
  const parent = decl.parent;
  let owner = '';
  if (ts.isInterfaceDeclaration(parent) || ts.isClassDeclaration(parent)) owner = parent.name?.text ?? '';
  else if (ts.isModuleBlock(parent)) owner = parent.parent.name.text;
  const key = `${owner}.${name}`;
  return key in SINK_CALLS ? key : undefined;
}

/** `'Deleted ' + n + ' keys'`: a literal with words among the operands of a `+` chain. */
function concatHasWords(expr: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(expr)) return concatHasWords(expr.expression);
  if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) return concatHasWords(expr.left) || concatHasWords(expr.right);
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return hasWords(expr.text);
  if (ts.isTemplateExpression(expr)) return hasWords([expr.head.text, ...expr.templateSpans.map((s) => s.literal.text)].join(''));
  return false;
}

function hasWords(text: string): boolean {
  return /[A-Za-z]/.test(text.replace(/\$\([a-z0-9~-]+\)/gi, ''));
}

export function scanProgram(program: ts.Program, files: readonly string[], srcRoot: string): Finding[] {
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];
  const wanted = new Set(files);

  for (const sf of program.getSourceFiles()) {
    if (!wanted.has(sf.fileName)) continue;
    // Reported where the text reaches the sink (`at`, the const's use), showing the text itself.
    // `probing`: check() only asks whether an expression holds raw text at all (see `mayHoldText`).
    let probing = false;
    let probed = false;
    const report = (node: ts.Node, sink: string, at: ts.Node = node): void => {
      if (probing) {
        probed = true;
        return;
      }
      // Data that only looks like words (a header name, an example URL, the product's name) is marked
      // where it is written: `/* not translated: an HTTP header name */ 'Authorization'`.
      if (sf.text.slice(node.pos, node.getStart(sf)).includes('not translated')) return;
      const { line } = sf.getLineAndCharacterOfPosition(at.getStart(sf));
      findings.push({ file: relative(process.cwd(), sf.fileName).split(sep).join('/'), line: line + 1, text: node.getText(node.getSourceFile()).slice(0, 80), sink });
    };

    // A raw text at a sink position, or one step away through a const or an object-literal property.
    const check = (expr: ts.Expression, sink: string, depth = 0, at?: ts.Node): void => {
      if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr) || ts.isSatisfiesExpression(expr)) return check(expr.expression, sink, depth, at);
      if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) {
        if (hasWords(expr.text)) report(expr, sink, at);
        return;
      }
      if (ts.isTemplateExpression(expr)) {
        const texts = [expr.head.text, ...expr.templateSpans.map((s) => s.literal.text)].join('');
        if (hasWords(texts)) report(expr, sink, at);
        else expr.templateSpans.forEach((s) => check(s.expression, sink, depth, at));
        return;
      }
      if (ts.isBinaryExpression(expr)) {
        const op = expr.operatorToken.kind;
        if (op === ts.SyntaxKind.PlusToken && concatHasWords(expr)) return report(expr, sink, at);
        if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
          check(expr.left, sink, depth, at);
          check(expr.right, sink, depth, at);
        } else if (op === ts.SyntaxKind.AmpersandAmpersandToken) check(expr.right, sink, depth, at);
        return;
      }
      if (ts.isConditionalExpression(expr)) {
        check(expr.whenTrue, sink, depth, at);
        check(expr.whenFalse, sink, depth, at);
        return;
      }
      if (ts.isArrayLiteralExpression(expr)) {
        for (const e of expr.elements) if (!ts.isObjectLiteralExpression(e)) check(ts.isSpreadElement(e) ? e.expression : e, sink, depth, at);
        return;
      }
      if (depth > 0) return;
      if (ts.isIdentifier(expr) || ts.isPropertyAccessExpression(expr)) {
        const symbol = checker.getSymbolAtLocation(ts.isIdentifier(expr) ? expr : expr.name);
        const decl = symbol?.valueDeclaration;
        if (!decl || decl.getSourceFile().fileName.includes('node_modules')) return;
        if (ts.isVariableDeclaration(decl) && decl.initializer && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) check(decl.initializer, sink, depth + 1, expr);
        else if (ts.isPropertyAssignment(decl)) check(decl.initializer, sink, depth + 1, expr);
      }
    };

    // Whether check() would report anything in these expressions under some sink. Asking the checker where
    // an expression goes (a call's resolved signature, a property's contextual type) is most of the scan's
    // cost, and most calls and properties carry no raw text, so that is asked only when one does: the
    // findings are the same (a finding needs raw text), the scan costs a fraction (#40.7).
    const mayHoldText = (...exprs: readonly ts.Expression[]): boolean => {
      probing = true;
      probed = false;
      try {
        for (const e of exprs) {
          check(e, '');
          if (probed) return true;
        }
        return false;
      } finally {
        probing = false;
      }
    };

    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const args = (node.arguments ?? []).map((arg) => (ts.isSpreadElement(arg) ? arg.expression : arg));
        const sink = args.length > 0 && mayHoldText(...args) ? callSinkName(checker, node) : undefined;
        if (sink) {
          const which = SINK_CALLS[sink]!;
          (node.arguments ?? []).forEach((arg, i) => {
            if (which === '*' || which.includes(i)) check(ts.isSpreadElement(arg) ? arg.expression : arg, sink);
          });
        }
      } else if (ts.isPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent)) {
        const name = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
        if (name) {
          const sink = mayHoldText(node.initializer) ? propertySink(checker, node.parent, name, srcRoot) : undefined;
          if (sink) check(node.initializer, sink);
          if (name === 'validateInput' && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) checkReturns(node.initializer, check);
        }
      } else if (ts.isShorthandPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent)) {
        const sink = mayHoldText(node.name) ? propertySink(checker, node.parent, node.name.text, srcRoot) : undefined;
        if (sink) check(node.name, sink);
      } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
        const sink = mayHoldText(node.right) ? isSinkSymbol(checker.getSymbolAtLocation(node.left.name), srcRoot) : undefined;
        if (sink) check(node.right, sink);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return findings;
}

/**
 * The sink a property of an object literal feeds, from the type the literal is checked against. For a
 * generic parameter (`showQuickPick<T extends QuickPickItem>(items: T[])`) the inferred type is the
 * literal's own, so the constraint is asked too (the checker's "completions" context, flag 4).
 */
function propertySink(checker: ts.TypeChecker, literal: ts.ObjectLiteralExpression, name: string, srcRoot: string): string | undefined {
  const contextual = checker.getContextualType as (node: ts.Expression, flags?: number) => ts.Type | undefined;
  for (const flags of [0, 4]) {
    const type = contextual.call(checker, literal, flags);
    const symbol = type ? checker.getPropertyOfType(type, name) ?? unionProperty(checker, type, name) : undefined;
    const sink = isSinkSymbol(symbol, srcRoot);
    if (sink) return sink;
  }
  return undefined;
}

function unionProperty(checker: ts.TypeChecker, type: ts.Type, name: string): ts.Symbol | undefined {
  if (!type.isUnion()) return undefined;
  for (const t of type.types) {
    const p = checker.getPropertyOfType(t, name);
    if (p) return p;
  }
  return undefined;
}

function checkReturns(fn: ts.ArrowFunction | ts.FunctionExpression, check: (e: ts.Expression, sink: string) => void): void {
  if (!ts.isBlock(fn.body)) return check(fn.body, 'validateInput');
  const walk = (n: ts.Node): void => {
    if (ts.isFunctionLike(n)) return;
    if (ts.isReturnStatement(n) && n.expression) check(n.expression, 'validateInput');
    ts.forEachChild(n, walk);
  };
  ts.forEachChild(fn.body, walk);
}
