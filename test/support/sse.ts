/** Parses an SSE body into its frames' JSON `data` (and event names), skipping `[DONE]`. */
export function parseSse(text: string): Array<{ event?: string | undefined; id?: string | undefined; data: unknown }> {
  const frames: Array<{ event?: string | undefined; id?: string | undefined; data: unknown }> = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event: string | undefined;
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0 || data.join('\n') === '[DONE]') continue;
    frames.push({ event, id, data: JSON.parse(data.join('\n')) });
  }
  return frames;
}
