import { describe, expect, it } from 'vitest';
import { ImportItem, initialSelection, isSelectable, parseConfigFile, reasonKey, selectionToSend, toggleAll, toggleSelection } from './import-selection';

function item(key: string, action: ImportItem['action']): ImportItem {
  return {
    key,
    section: key === 'settings' ? 'settings' : 'signs',
    name: key === 'settings' ? null : key.split(':')[1],
    source_keys: [],
    accounts: [],
    action,
    reason: null,
    mapped_fields: [],
    defaults_applied: [],
    unmapped_fields: [],
    warnings: [],
    problems: [],
  };
}

const ITEMS = [item('signs:a', 'create'), item('signs:b', 'overwrite'), item('signs:c', 'skip'), item('signs:d', 'refuse'), item('signs:e', 'unchanged'), item('settings', 'update')];

describe('import preview selection', () => {
  it('starts with every item that would be written and never offers refused, skipped or unchanged ones', () => {
    expect(initialSelection(ITEMS)).toEqual(['signs:a', 'signs:b', 'settings']);
    expect(ITEMS.filter(isSelectable).map((entry) => entry.key)).toEqual(['signs:a', 'signs:b', 'settings']);
  });

  it('toggles one item and all items', () => {
    let selected = initialSelection(ITEMS);
    selected = toggleSelection(selected, 'signs:b', false);
    expect(selected).toEqual(['signs:a', 'settings']);
    selected = toggleAll(ITEMS, selected);
    expect(selected.sort()).toEqual(['settings', 'signs:a', 'signs:b']);
    expect(toggleAll(ITEMS, selected)).toEqual([]);
  });

  it('sends only selectable items of the current preview, in its order', () => {
    expect(selectionToSend(ITEMS, ['settings', 'signs:d', 'signs:gone', 'signs:a'])).toEqual(['signs:a', 'settings']);
  });

  it('reads a JSON object (with a byte-order mark) and names what is wrong with anything else', () => {
    expect(parseConfigFile('\uFEFF{"signs":{}}')).toEqual({ document: { signs: {} } });
    expect(parseConfigFile('{not json')).toEqual({ problem: 'notJson' });
    expect(parseConfigFile('[1,2]')).toEqual({ problem: 'notObject' });
    expect(parseConfigFile('null')).toEqual({ problem: 'notObject' });
  });
});

describe('reasonKey', () => {
  it("explains a skipped task and the settings' change in the page's words, and leaves a refusal's problems to the service", () => {
    expect(reasonKey(item('signs:a', 'skip'))).toBe('settings.import.reasons.skip');
    expect(reasonKey(item('settings', 'update'))).toBe('settings.import.reasons.settings');
    expect(reasonKey(item('signs:a', 'refuse'))).toBeNull();
    expect(reasonKey(item('signs:a', 'create'))).toBeNull();
  });
});
