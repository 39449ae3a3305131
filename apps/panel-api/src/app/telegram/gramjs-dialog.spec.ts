import { Api, helpers } from 'telegram';
import { dialogFromGramJs } from './gramjs-telegram-gateway';

const id = (value: string) => helpers.returnBigInt(value);

describe('dialogFromGramJs (the chat picker read from GramJS dialogs)', () => {
  it('names a user by its dialog title and keeps the username', () => {
    const entity = new Api.User({ id: id('42'), firstName: 'Check', lastName: 'Bot', username: 'CheckBot' });
    expect(dialogFromGramJs({ id: id('42'), title: 'Check Bot', entity })).toEqual({ id: '42', title: 'Check Bot', kind: 'user', username: 'CheckBot' });
  });

  it('tells basic groups, supergroups, forums and channels apart by their marked id', () => {
    expect(dialogFromGramJs({ id: id('-77'), title: 'Family', entity: new Api.Chat({ id: id('77'), title: 'Family', photo: new Api.ChatPhotoEmpty(), participantsCount: 3, date: 0, version: 1 }) })).toEqual({
      id: '-77',
      title: 'Family',
      kind: 'group',
    });
    const channel = (flags: { megagroup?: boolean; forum?: boolean; username?: string }) =>
      new Api.Channel({ id: id('123'), title: 'Room', photo: new Api.ChatPhotoEmpty(), date: 0, ...flags });
    expect(dialogFromGramJs({ id: id('-100123'), title: 'Room', entity: channel({ megagroup: true, username: 'room' }) })).toEqual({ id: '-100123', title: 'Room', kind: 'group', username: 'room' });
    expect(dialogFromGramJs({ id: id('-100123'), title: 'Room', entity: channel({ megagroup: true, forum: true }) })?.kind).toBe('forum');
    expect(dialogFromGramJs({ id: id('-100123'), title: 'Room', entity: channel({}) })?.kind).toBe('channel');
  });

  it('leaves out what a task cannot target', () => {
    expect(dialogFromGramJs({ id: id('5'), title: '', entity: new Api.User({ id: id('5'), deleted: true }) })).toBeUndefined();
    expect(dialogFromGramJs({ id: id('-9'), title: 'Gone', entity: new Api.ChatForbidden({ id: id('9'), title: 'Gone' }) })).toBeUndefined();
    expect(dialogFromGramJs({ title: 'No id' })).toBeUndefined();
  });
});
