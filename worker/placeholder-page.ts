/** The page `/` shows until the playground is built into `dist-web/`. */
export function placeholderPage(model: string): string {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ghostlight</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code,pre{background:#f3f3f3;padding:.1rem .3rem}</style></head>
<body><h1>Ghostlight</h1>
<p>The demo Worker is running with ${escape(model)}. The playground is not built yet.</p>
<p>Try the API:</p>
<pre>curl -s -X POST -H 'content-type: application/json' \\
  -d '{"input":"How long does shipping take?"}' ${'${origin}'}/agents/support/runs</pre>
<p>Routes: <code>POST /agents/support/runs</code> (JSON or <code>Accept: text/event-stream</code>),
<code>POST /agents/support/ag-ui</code> (AG-UI), <code>POST /agents/support/chat</code> (AI SDK <code>useChat</code>). See <code>GET /api</code>.</p>
<script>document.querySelector('pre').textContent = document.querySelector('pre').textContent.replace('\${origin}', location.origin);</script>
</body></html>`;
}
