import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing';
import { SetUrlParams, useUrlFilter, useUrlParams } from './url-filter';

interface Filter {
  kind: string;
  q: string;
}

const fromParams = (params: URLSearchParams): Filter => ({ kind: params.get('kind') ?? '', q: params.get('q') ?? '' });
const toParams = (filter: Filter) => new URLSearchParams(Object.entries(filter).filter(([, value]) => value));

function FilterForm() {
  const { filter, draft, field, go, clear } = useUrlFilter(fromParams, toParams);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        go(draft);
      }}
    >
      <output aria-label="shown">{JSON.stringify(filter)}</output>
      <label>
        Kind
        <select value={draft.kind} onChange={(event) => field('kind', event.currentTarget.value)}>
          <option value="">any</option>
          <option value="a">a</option>
          <option value="b">b</option>
        </select>
      </label>
      <label>
        Text
        <input value={draft.q} onChange={(event) => field('q', event.currentTarget.value)} />
      </label>
      <button type="submit">Apply</button>
      <button type="button" onClick={clear}>
        Clear
      </button>
    </form>
  );
}

describe('useUrlFilter', () => {
  it('applies the form to the URL and the form follows the URL back', async () => {
    const { router } = renderWithProviders(<FilterForm />, { url: '/?kind=a&q=x' });
    expect(screen.getByLabelText<HTMLSelectElement>('Kind').value).toBe('a');
    expect(screen.getByLabelText<HTMLInputElement>('Text').value).toBe('x');

    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'b' } });
    expect(screen.getByLabelText('shown').textContent).toBe('{"kind":"a","q":"x"}');
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(router.state.location.search).toBe('?kind=b&q=x');

    await act(() => router.navigate(-1));
    expect(screen.getByLabelText<HTMLSelectElement>('Kind').value).toBe('a');
  });

  it('keeps a change made straight after Clear (the clear has rendered before the click returns)', () => {
    const { router } = renderWithProviders(<FilterForm />, { url: '/?kind=a&q=x' });
    // One act: the change is queued before React renders anything the clear left pending.
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
      fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'b' } });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(router.state.location.search).toBe('?kind=b');
  });

  it('builds a delayed change on the latest parameters, not on those of the render that scheduled it', () => {
    let setParams: SetUrlParams | undefined;
    function Probe() {
      const [params, set] = useUrlParams();
      setParams ??= set; // the setter of the first render, as a search timer started then holds it
      return <output aria-label="query">{params.toString()}</output>;
    }
    const { router } = renderWithProviders(<Probe />, { url: '/?kind=a' });
    const scheduled = setParams as SetUrlParams;
    act(() => scheduled(new URLSearchParams('kind=b')));
    act(() =>
      scheduled((current) => {
        const next = new URLSearchParams(current);
        next.set('q', 'x');
        return next;
      }),
    );
    expect(router.state.location.search).toBe('?kind=b&q=x');
    expect(screen.getByLabelText('query').textContent).toBe('kind=b&q=x');
  });
});
