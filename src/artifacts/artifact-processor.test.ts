import { describe, expect, it } from 'vitest';
import { createArtifact } from '../content/artifact.ts';
import { presentationPart } from './artifact-processor.ts';

describe('presentationPart', () => {
  const of = (mediaType: string, data: string | Uint8Array = 'x') => presentationPart(createArtifact({ data, mediaType }), 'file');

  it('shows provider-supported images and PDFs as files, text-like media as text, and nothing else', () => {
    expect(of('image/png')).toMatchObject({ type: 'file', mediaType: 'image/png', filename: 'file' });
    expect(of('application/pdf')).toMatchObject({ type: 'file', mediaType: 'application/pdf' });
    expect(of('image/svg+xml', '<svg/>')).toEqual({ type: 'text', text: 'Artifact file (image/svg+xml):\n<svg/>' });
    expect(of('application/json; charset=utf-8', '{}')).toMatchObject({ type: 'text' });
    expect(of('application/vnd.api+json', '{}')).toMatchObject({ type: 'text' });
    expect(of('text/csv', 'a,b')).toEqual({ type: 'text', text: 'Artifact file (text/csv):\na,b' });
    expect(of('image/tiff')).toBeUndefined();
    expect(of('application/zip')).toBeUndefined();
  });
});
