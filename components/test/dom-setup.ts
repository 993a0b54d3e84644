/**
 * A DOM for component tests under node:test: happy-dom's window, its globals copied onto Node's (Node's own timers,
 * fetch, URL… are kept), and React told it runs inside act(). Loaded with `--import` before the test files, without
 * the `react-server` condition (the component tests need react-dom/client).
 */
import { Window } from "happy-dom";

const win = new Window({ url: "http://localhost/", settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
const target = globalThis as unknown as Record<string, unknown>;
const source = win as unknown as Record<string, unknown>;
for (const key of Object.getOwnPropertyNames(win)) {
  if (key in globalThis || key.startsWith("_")) continue;
  target[key] = source[key];
}
target.window = win;
target.document = win.document;
// Node 25+ has Web Storage globals of its own (undefined without --localstorage-file), which the copy above keeps:
// the browser's storage is happy-dom's, whatever Node brings.
for (const key of ["localStorage", "sessionStorage"] as const)
  Object.defineProperty(globalThis, key, { value: win[key], configurable: true, writable: true });
target.IS_REACT_ACT_ENVIRONMENT = true;
