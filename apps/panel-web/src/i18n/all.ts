import * as about from '../routes/about/strings';
import * as accounts from '../routes/accounts/strings';
import * as history from '../routes/history/strings';
import * as hits from '../routes/hits/strings';
import * as profile from '../routes/profile/strings';
import * as settings from '../routes/settings/strings';
import * as tasks from '../routes/tasks/strings';
import { en as shellEn } from './en';
import { zh as shellZh } from './zh';

/** Every page's strings, for the tests that render pages and the one that keeps the languages equal. */
export const PAGE_STRINGS = { about, accounts, history, hits, profile, settings, tasks };

export const en = Object.assign({}, shellEn, ...Object.values(PAGE_STRINGS).map((page) => page.en));
export const zh = Object.assign({}, shellZh, ...Object.values(PAGE_STRINGS).map((page) => page.zh));
