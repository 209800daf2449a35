// What each column of a table holds, read the way a person reads a file they have never seen:
// from the words of its header and from the values under it, together. A header word proposes a
// role (`Work Phone`, `E-mail 2`, `Attendee no.`, `Home Country`); the values confirm it or
// overrule it (a column of addresses is an email column whatever its name; `Email Opt Out` full
// of yes/no is not). Nothing here knows a vendor: exports.ts keeps what inference cannot know.
import { addressCountry, countryCode } from './countries.js';
import type { Cell } from './sources/types.js';
import { cellValues, cleanCell, emailIn, readBoolean } from './values.js';

export type ColumnRole =
  | 'id'
  | 'email'
  | 'phone'
  | 'country'
  | 'first'
  | 'middle'
  | 'last'
  | 'suffix'
  | 'name';

/** One column's role, and why: its header words (confirmed by its values) or its values alone. */
export interface InferredColumn {
  role: ColumnRole;
  by: 'words' | 'values';
  /** Phones and emails: the order they are tried in (lower first). */
  rank: number;
}

/** A column whose values look like phones, emails or countries but that is read as none. */
export interface LookAlikeColumn {
  index: number;
  looksLike: 'phone' | 'email' | 'country';
}

export interface ColumnInference {
  /** By column index. */
  columns: (InferredColumn | undefined)[];
  /** The id column chosen (the contact's own id), if any. */
  id: number | undefined;
  /** Header words said id, but the values are not one (empty or repeated): why, by column. */
  notKeys: { index: number; why: string }[];
  /** Header words and values disagreed, and the values decided. */
  overruled: { index: number; header: ColumnRole; values: ColumnRole }[];
  lookAlikes: LookAlikeColumn[];
  /** Share of the sample's rows with an email in some email column (1 when there is no sample). */
  emailShare: number;
  /** A column filled and unique in every row, for a file whose rows mostly have no email. */
  uniqueColumn: number | undefined;
}

type Place = 'work' | 'home' | 'other';

/**
 * The words of a header, in lower case, accents off: `E-mail 2` -> [email, 2], `FirstName` ->
 * [first, name], `Attendee no.` -> [attendee, no], `Phone - home` -> [phone, home].
 */
export function headerWords(header: string): string[] {
  // Accents go (`Téléphone`); kana keep their voicing marks and Hangul its syllables (`カード`).
  const spaced = eastAsianWords(header)
    .normalize('NFKD')
    .replace(/(?![\u3099\u309a])\p{M}/gu, '')
    .normalize('NFC')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, (_, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`))
    .toLowerCase();
  const raw = spaced.match(/[\p{L}\p{N}]+|#/gu) ?? [];
  const words: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i]!;
    // E-mail, e mail
    if ((word === 'e' && raw[i + 1] === 'mail') || (word === 'whats' && raw[i + 1] === 'app')) {
      words.push(word === 'e' ? 'email' : 'whatsapp');
      i++;
      continue;
    }
    words.push(...(ABBREVIATED.get(word) ?? splitCompound(word)));
  }
  return words;
}

/** A name's parts as databases abbreviate them (`fname`, `lname`, `legal_fname`). */
const ABBREVIATED: ReadonlyMap<string, string[]> = new Map([
  ['fname', ['first', 'name']],
  ['lname', ['last', 'name']],
  ['mname', ['middle', 'name']],
]);

/**
 * Japanese, Chinese and Korean headers' words, as the English words the rules read: `姓` and `名`
 * are a last and a first name, `メールアドレス` an email, `お届け先電話番号` a shipping phone number.
 * A header runs its words together; the longest known word is taken at each place.
 */
const EAST_ASIAN_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    name: '氏名 名前 お名前 名 姓名 全名 성명 성함 이름 명',
    'last name': '姓 苗字 姓氏 성',
    maiden: '旧姓',
    // Readings of a name (furigana, katakana, romaji) are not the name.
    phonetic: 'フリガナ ふりがな カナ かな 読み よみ ヨミ セイ メイ ローマ字',
    email:
      'メール メールアドレス 電子メール 電子メールアドレス 邮箱 电子邮件 电子邮箱 邮件 電子郵件 郵件 이메일 메일 전자우편',
    // A Japanese mobile's own email address.
    'mobile email': '携帯アドレス 携帯メール',
    'phone number': '電話番号 电话号码 電話號碼 전화번호 연락처',
    phone: '電話 固定電話 电话 联系电话 聯絡電話 전화',
    mobile:
      '携帯 携帯電話 携帯番号 携帯電話番号 手机 手机号 手机号码 手機 手機號碼 휴대폰 휴대전화 핸드폰 휴대폰번호',
    fax: 'ファックス ファクス 传真 傳真 팩스',
    'company name': '会社名 企業名 公司名称 회사명',
    company: '会社 企業 公司 회사',
    country: '国 国名 国家 國家 국가 나라',
    state: '都道府県 省 省份',
    'postal code': '郵便番号 邮编 邮政编码 郵遞區號 우편번호',
    address: '住所 アドレス 地址 주소',
    city: '市区町村 城市',
    number: '番号 号码 號碼 编号 編號 번호',
    order: '注文 受注 订单 訂單 주문',
    invoice: '請求書 伝票 发票 發票 송장',
    tracking: '追跡 운송장',
    // Someone else's: a pupil's guardian or parent, whom to call in an emergency.
    guardian: '保護者 保护人 監護人 보호자',
    parent: '親 父母 家長 家长 부모 학부모',
    emergency: '緊急 紧急 긴급 비상',
    // A national identity card's number is no key of a contact.
    ssn: '身份证 身分證 주민등록 주민',
    member: '会員 会员 會員 회원',
    customer: '顧客 客户 客戶 고객 구매자',
    contact: '連絡先 联系人 聯絡人',
    shipping: 'お届け先 配送先 배송지 배송',
    billing: '請求先',
    home: '自宅',
    work: '勤務先 직장',
    gender: '性別 性别 성별',
    birthday: '生年月日 誕生日 生日 出生日期 생년월일 생일',
    notes: '備考 备注 메모 비고',
    'job title': '役職 职位 職位 직위 직책',
    department: '部署 部门 부서',
  }).flatMap(([words, terms]) => terms.split(' ').map((term) => [term, words] as const)),
);
const EAST_ASIAN_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;
const LONGEST_TERM = Math.max(...[...EAST_ASIAN_WORDS.keys()].map((term) => term.length));

function eastAsianWords(header: string): string {
  if (!/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff66-\uff9f]/.test(header)) return header;
  return header.normalize('NFKC').replace(EAST_ASIAN_RUN_RE, (run, at: number, whole: string) => {
    // `名` alone, beside `姓`, is the first name (`名（漢字）` too); after other words (`顧客名`,
    // `LINE名`: a messaging app's display name) a name.
    if (run === '名') return /[\p{L}\p{N}]/u.test(whole[at - 1] ?? '') ? ' name ' : ' first name ';
    const out: string[] = [];
    let unknown = '';
    for (let i = 0; i < run.length; ) {
      let found: string | undefined;
      let length = Math.min(LONGEST_TERM, run.length - i);
      for (; length > 0 && found === undefined; length--)
        found = EAST_ASIAN_WORDS.get(run.slice(i, i + length));
      if (found === undefined) {
        unknown += run[i];
        i++;
        continue;
      }
      if (unknown) out.push(unknown);
      unknown = '';
      out.push(found);
      i += length + 1;
    }
    if (unknown) out.push(unknown);
    return ` ${out.join(' ')} `;
  });
}

/** Words that run together in headers (`firstname`, `emailaddress`, `mobilephonenumber`). */
const PARTS = new Set([
  'first',
  'last',
  'middle',
  'full',
  'given',
  'family',
  'display',
  'user',
  'nick',
  'email',
  'mail',
  'phone',
  'mobile',
  'cell',
  'home',
  'work',
  'business',
  'office',
  'primary',
  'main',
  'other',
  'private',
  'personal',
  'number',
  'country',
  'code',
  'region',
  'external',
  'contact',
  'customer',
  'record',
  'member',
  'client',
  'person',
  'lead',
  'subscriber',
  'attendee',
  'id',
  'name',
  'address',
  'tele',
  'telephone',
]);

function splitCompound(word: string): string[] {
  if (PARTS.has(word) || word.length < 5 || !/^\p{L}+$/u.test(word)) return [word];
  const split = (rest: string): string[] | undefined => {
    if (rest === '') return [];
    for (let k = rest.length; k >= 2; k--) {
      const head = rest.slice(0, k);
      if (!PARTS.has(head)) continue;
      const tail = split(rest.slice(k));
      if (tail) return [head, ...tail];
    }
    return undefined;
  };
  // `Kundennummer`, `Mitgliedsnummer`: a thing's number in one word.
  const number = /^(\p{L}{3,})(nummer|number)$/u.exec(word);
  return split(word) ?? (number ? [number[1]!, 'number'] : [word]);
}

const has = (words: readonly string[], set: ReadonlySet<string>) => words.some((w) => set.has(w));

const EMAIL_WORDS = new Set(['email', 'emails', 'mail', 'courriel', 'correo']);
/** Words of a mobile number: tried first. */
const MOBILE_WORDS = new Set([
  'mobil',
  // A German Outlook's `Mobiltelefon`, one word.
  'mobiltelefon',
  'sms',
  'portable',
  'cellulare',
  'mobile',
  'cell',
  'cellphone',
  'cellular',
  'mob',
  'handy',
  'gsm',
  'movil',
  'celular',
  'whatsapp',
]);
const PHONE_WORDS = new Set([
  ...MOBILE_WORDS,
  'phone',
  'telefoon',
  'rufnummer',
  'fon',
  'phones',
  'telephone',
  'tel',
  'tele',
  'telefon',
  'telefono',
  'telefone',
  'landline',
]);
/** Numbers a phone column must not take, whatever their values look like. */
const NOT_PHONE_WORDS = new Set(['fax', 'pager', 'telex', 'ext', 'extension']);
/** What kind of address or number a column says another holds (Google's `Phone 1 - Type`, `Mobile`). */
const KIND_WORDS = new Set(['type', 'kind', 'label']);
const COUNTRY_WORDS = new Set(['country', 'countries', 'nation', 'pays', 'pais', 'land', 'paese']);
/** A whole postal address in one column, which may end with its country (Jotform's `Address`). */
const ADDRESS_WORDS = new Set([
  'address',
  'adresse',
  'direccion',
  'indirizzo',
  'endereco',
  'adres',
  'anschrift',
]);
/** Words of an address that is the contact's own, not a venue's or a company's. */
const OWN_ADDRESS_WORDS = new Set([
  'home',
  'mailing',
  'postal',
  'private',
  'personal',
  'residential',
  'main',
  'primary',
  'billing',
  'contact',
  'current',
  'full',
  'your',
]);
/** `Address`, `Home Address`, `What is your address?`; not `Venue Address`, `Company Address`. */
const ownAddress = (words: readonly string[]) =>
  has(words, ADDRESS_WORDS) &&
  words.every(
    (w) => ADDRESS_WORDS.has(w) || OWN_ADDRESS_WORDS.has(w) || QUESTION_WORDS.has(w) || /^\d+$/.test(w),
  );
/** A country that is not where the contact's phone is: of birth, a nationality, a language. */
const NOT_COUNTRY_WORDS = new Set([
  'birth',
  'nationality',
  'citizenship',
  'language',
  'locale',
  'currency',
  'origin',
]);
const STATE_WORDS = new Set(['state', 'province', 'county', 'prefecture', 'canton']);
const POSTAL_WORDS = new Set(['postal', 'zip', 'zipcode', 'postcode', 'postalcode', 'plz']);

/** A postal code's header: `Zip`, `Postal Code`, `PLZ`, and Thunderbird's `Home Post Code`. */
export const namesPostcode = (words: readonly string[]) =>
  has(words, POSTAL_WORDS) || (words.includes('post') && words.includes('code'));
/** Words that name a person's id only beside the person's word (`Client Code`, `Codice cliente`). */
const CODE_WORDS = new Set(['code', 'codice', 'codigo', 'ref', 'reference', 'referencia']);
const ID_WORDS = new Set([
  'id',
  'ids',
  'identifier',
  'guid',
  'uuid',
  'uid',
  'key',
  'no',
  'nr',
  'number',
  'num',
  '#',
]);
/** Whose id, name or email a column holds when it names one of these: the contact's own. */
const PERSON_WORDS = new Set([
  'contact',
  'invitee',
  'kunde',
  'kunden',
  'mitglied',
  'mitglieds',
  'teilnehmer',
  'cliente',
  'klant',
  'lid',
  'socio',
  'adherent',
  'person',
  'people',
  'customer',
  'client',
  'member',
  'subscriber',
  'attendee',
  'participant',
  'guest',
  'registrant',
  'user',
  'lead',
  'record',
  'profile',
  'external',
  'supporter',
  'constituent',
  'donor',
  'patient',
  'student',
  'employee',
  'respondent',
  'recipient',
  'prospect',
  'visitor',
  'connection',
]);
/**
 * Whose id numbers one registration (a ticket, a booking, a survey's response), not the person:
 * their name and email are the person's, their id is not a key that holds from one event to the next.
 */
const REGISTRATION_WORDS = new Set([
  'attendee',
  'registrant',
  'invitee',
  'participant',
  'respondent',
  'response',
  'submission',
  // A form's (Wufoo's and Gravity Forms' `Entry Id`).
  'entry',
  'teilnehmer',
  'appointment',
  'booking',
  'reservation',
  'purchase',
  'sale',
  'sales',
]);
/**
 * Another thing's id, name or email (an account's, an owner's, an order's): never the contact's,
 * even when its values would do.
 */
const OTHER_WORDS = new Set([
  'account',
  'tracking',
  'waybill',
  'shipment',
  'parcel',
  'host',
  'organizer',
  'organiser',
  'inviter',
  'bestell',
  'auftrag',
  'rechnung',
  'commande',
  'pedido',
  'ordine',
  'factura',
  'salesperson',
  'responsable',
  'guardian',
  'reports',
  'sender',
  'from',
  'reply',
  'opportunity',
  'ip',
  'company',
  'organization',
  'organisation',
  'org',
  'owner',
  'deal',
  'order',
  'invoice',
  'transaction',
  'payment',
  'parent',
  'campaign',
  'list',
  'event',
  'barcode',
  'form',
  'page',
  'group',
  'team',
  'tenant',
  'workspace',
  'site',
  'source',
  'product',
  'sku',
  'item',
  'session',
  'network',
  'device',
  'browser',
  'manager',
  'rep',
  'agent',
  'assignee',
  'assigned',
  'creator',
  'created',
  'modified',
  'updated',
  'by',
  'referrer',
  'referred',
  'referral',
  'invited',
  'affiliate',
  'partner',
  'household',
  'vat',
  'tax',
  'ssn',
  'passport',
  'license',
  'licence',
  'postal',
  'zip',
  'post',
  'house',
  'street',
  'building',
  'seat',
  'batch',
  'import',
  'job',
  'assistant',
  'spouse',
  'emergency',
  'domain',
  'checksum',
  'version',
  'social',
  'twitter',
  'facebook',
  'linkedin',
  'instagram',
  'skype',
  'stripe',
  'google',
  'message',
  'thread',
  'file',
  'photo',
  'image',
  'url',
]);
/**
 * A thing one person holds, whose name, email and phone are its holder's (Tito's `Ticket Email`
 * beside the buyer's `Order Email`), but whose id is the thing's (`Ticket ID`).
 */
const HELD_WORDS = new Set(['ticket']);
/** What a guest list says of each ticket: its name, type, class or tier. */
const TICKET_KIND_WORDS = new Set(['name', 'type', 'class', 'tier', 'category', 'level']);

/** A phone of someone else's (an owner's, an assistant's, an order's buyer's): passed over. */
const OTHER_PHONE_WORDS = new Set([
  'company',
  'salesperson',
  'responsable',
  'guardian',
  'owner',
  'manager',
  'rep',
  'agent',
  'assignee',
  'assigned',
  'assistant',
  'spouse',
  'emergency',
  'by',
  'referrer',
  'parent',
  'order',
]);
/** Words beside `name` that keep it the contact's full name (`Full Name`, `Attendee Name`). */
/**
 * A form's question around the field it asks for (`What is your email address?`, `Please enter
 * your full name`, `Best email to reach you at`): no part of what the column holds.
 */
const QUESTION_WORDS = new Set([
  'what',
  'whats',
  's',
  'is',
  'please',
  'enter',
  'provide',
  'give',
  'us',
  'best',
  'reach',
  'you',
  'at',
  'can',
  'we',
  'wie',
  'ist',
  'bitte',
  'ihr',
  'ihre',
  'cual',
  'es',
  'tu',
  'su',
  'quel',
  'quelle',
  'est',
  'votre',
]);
const NAME_QUALIFIERS = new Set([
  'full',
  'display',
  'complete',
  'your',
  // Who paid: the person, in a sales export (`Buyer Name`, Shopify orders' `Billing Name`; the
  // shipping name may be a gift's recipient).
  'buyer',
  'purchaser',
  'billing',
  // Zoom's participants: `Name (Original Name)`, the name as the person first gave it.
  'original',
  ...PERSON_WORDS,
]);
/**
 * A name column with one of these words names a person the row is about (`Contact Name`,
 * `primary_contact_name`), ahead of one that does not (`Name`, `display_name`: a lead's company
 * in Close). Not `user` (`User Name` is a login) nor the words of a record (`lead`, `record`).
 */
const WHOSE_NAME_WORDS = new Set(
  [...PERSON_WORDS].filter(
    (w) => !['user', 'lead', 'record', 'profile', 'external', 'people', 'connection'].includes(w),
  ),
);
const FIRST_WORDS = new Set([
  'first',
  'given',
  'forename',
  'firstname',
  'vorname',
  'prenom',
  'prenume',
  'voornaam',
]);
const LAST_WORDS = new Set([
  'last',
  'surname',
  'family',
  'lastname',
  'nachname',
  'apellido',
  'apellidos',
  'cognome',
  'achternaam',
  'sobrenome',
]);
/** `Name` in other languages: a full name alone, the first name beside a last name. */
const NAME_WORDS = new Set(['name', 'nombre', 'nome', 'nom', 'naam', 'navn', 'namn', 'nume']);
/** `and` in the languages whose name words are above. */
const AND_WORDS = new Set(['and', 'und', 'y', 'e', 'et', 'si', 'en', 'og', 'och']);
const MIDDLE_WORDS = new Set(['middle', 'additional']);
const NOT_NAME_WORDS = new Set([
  'nick',
  'user',
  'screen',
  'maiden',
  'phonetic',
  'yomi',
  'initial',
  'initials',
]);

/** Dynamics 365's marker of the hidden columns that carry a row's identity. */
const doNotModify = (words: readonly string[]) =>
  words.includes('do') && words.includes('not') && words.includes('modify');

/**
 * How strongly an id-worded header names the contact's own id: 0 with a person's word (`Contact
 * ID`, `Attendee no.`), 1 alone (`ID`, `#`, `GUID`), 2 after one other word (`Klaviyo ID`, a
 * system's own name), 3 for a marked column whose values are GUIDs; undefined for anything else
 * (`Number of visits`).
 */
function idTier(words: readonly string[]): number | undefined {
  if (doNotModify(words)) return 3;
  // `Unique external ID` (Freshdesk): what every id is, no system's name.
  const rest = words.filter(
    (w) =>
      !ID_WORDS.has(w) && !CODE_WORDS.has(w) && !PERSON_WORDS.has(w) && w !== 'unique' && !/^\d+$/.test(w),
  );
  const person = has(words, PERSON_WORDS);
  if (rest.length === 0) return person ? 0 : 1;
  // `Apollo Contact Id`: a system's name before the person's id, above `Klaviyo ID`, and as
  // strictly held to unique values (`Primary Contact ID` may name one contact on many rows).
  if (rest.length === 1 && rest[0]!.length >= 3) return person ? 1.5 : 2;
  return undefined;
}

/**
 * `# Employees`, `No. of Visits`, `Number Attending`, `No Show`: a count-word first, then what is
 * counted (`of`, a plural, a participle). `Nº Abonado`, `Nr. Medlem`, `# Ref` stay ids.
 */
function isCount(words: readonly string[]): boolean {
  const [first = '', next = ''] = words;
  if (!COUNT_FIRST_WORDS.has(first) || has(words, PERSON_WORDS)) return false;
  if (next === 'of' || next === 'show' || next === 'shows') return true;
  return first !== 'no' && first !== 'nr' && next.length > 3 && /(?:[^s]s|ing)$/.test(next);
}
const COUNT_FIRST_WORDS = new Set(['#', 'no', 'nr', 'number', 'num']);

/** A header of a number sign or `No.` alone (Typeform's `#`, a list's `No.`): the rows' numbers, no one's id. */
const rowNumber = (words: readonly string[]) => words.length === 1 && ROW_NUMBER_WORDS.has(words[0]!);
const ROW_NUMBER_WORDS = new Set(['#', 'no', 'nr']);

const MAIN_WORDS = new Set(['main', 'primary', 'default', 'preferred', 'direct']);
const WORK_WORDS = new Set(['work', 'business', 'office', 'corporate', 'job']);
const HOME_WORDS = new Set(['home', 'private', 'personal', 'residence', 'residential']);
const OTHER_PLACE_WORDS = new Set([
  'other',
  'alt',
  'alternative',
  'alternate',
  'secondary',
  'additional',
  'car',
  'radio',
  'second',
]);

/** What a header's words propose; `none` when they name something no contact field takes. */
export function roleByWords(words: readonly string[]): ColumnRole | 'none' | undefined {
  if (words.length === 0) return undefined;
  const other = has(words, OTHER_WORDS);
  if (has(words, NOT_PHONE_WORDS)) return 'none';
  if (has(words, KIND_WORDS) && (has(words, EMAIL_WORDS) || has(words, PHONE_WORDS))) return 'none';
  if (has(words, EMAIL_WORDS)) return other ? 'none' : 'email';
  if (has(words, PHONE_WORDS)) return has(words, OTHER_PHONE_WORDS) ? 'none' : 'phone';
  // `Text Reminder Number`, `Text number`: the number texts are sent to.
  if (words.includes('text') && (words.includes('number') || words.includes('no')) && !other) return 'phone';
  if (has(words, COUNTRY_WORDS))
    return has(words, STATE_WORDS) || has(words, NOT_COUNTRY_WORDS) ? 'none' : 'country';
  if (other) return 'none';
  if (has(words, STATE_WORDS)) return 'none';
  // A household's id (`family_id`, `Household ID`) is no person's.
  if ((has(words, ID_WORDS) && !isCount(words)) || doNotModify(words))
    return has(words, HELD_WORDS) || words.includes('family') || words.includes('household') ? 'none' : 'id';
  if (has(words, CODE_WORDS) && has(words, PERSON_WORDS)) return 'id';
  if (has(words, NOT_NAME_WORDS)) return undefined;
  const named = has(words, NAME_WORDS);
  const [first, last] = [has(words, FIRST_WORDS), has(words, LAST_WORDS)];
  // Both halves in one column: `First and Last Name`, `Vorname Nachname`, `Nombre y apellidos`,
  // `Nom et prénom`, `Nume și prenume` (where the name word alone is one half).
  if ((first && last) || ((first || last) && named && has(words, AND_WORDS))) return 'name';
  // A form's question number (`1. Name`) is no part of what the column holds.
  if (words.length > 1 && /^\d+$/.test(words[0]!)) return roleByWords(words.slice(1));
  if (first && (named || words.length === 1)) return 'first';
  if (last && (named || words.length === 1)) return 'last';
  if (has(words, MIDDLE_WORDS) && named) return 'middle';
  // Outlook's `Suffix`, Google's `Name Suffix`: `Jr.`, `III`, `PhD` after the name.
  if (words.includes('suffix') && (named || words.length === 1)) return 'suffix';
  if (named) {
    // `Ticket Full Name` is its holder's; `Ticket Name` is the ticket's (`General Admission`).
    const qualified = has(words, NAME_QUALIFIERS);
    // `Primary Contact Name`: the main one of the row's people.
    const person = has(words, PERSON_WORDS);
    // A question's words around the name it asks for (`What is your name?`) are no part of it,
    // nor `of` before whose it is (`Name of Attendee`, Blackboard Collaborate's `NameOfAttendee`).
    const rest = words.filter(
      (w) =>
        !NAME_WORDS.has(w) &&
        !NAME_QUALIFIERS.has(w) &&
        !QUESTION_WORDS.has(w) &&
        !(qualified && w === 'of') &&
        !(qualified && HELD_WORDS.has(w)) &&
        !(person && (w === 'primary' || w === 'main')),
    );
    return rest.length === 0 ? 'name' : undefined;
  }
  return undefined;
}

const PERSON_NAME_RE = /^\p{L}[\p{L}'’.-]*(?:\s+\p{L}[\p{L}'’.-]*){1,3}$/u;
const EMAIL_RE = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]{2,}$/;
const PHONE_RE = /^(?:tel:)?\+?[\d\s().\-/]+(?:\s*(?:x|ext\.?|#)\s*\d+)?$/i;
/** Digits that are no phone: an IP address, a decimal (a coordinate, an amount), a ZIP+4 code. */
const NOT_PHONE_RE = /^(?:\d{1,3}(?:\.\d{1,3}){3}|-?\d+\.\d+|\d{5}-\d{4})$/;
const DATE_LIKE_RE = /^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}(?:[ T].*)?$/;
const GUID_RE = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;
const URL_RE = /^https?:\/\/\S+$/i;
/** Several values in one cell: the first is what the row means. */
const SEPARATORS = [' ::: ', ';', ',', '|'];

function looksLikePhone(value: string): boolean {
  if (!PHONE_RE.test(value) || DATE_LIKE_RE.test(value) || NOT_PHONE_RE.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  if (digits < 7 || digits > 15) return false;
  // Written as a phone number is (a +, spaces, dashes, parentheses), or long enough to be one.
  return /[+()\s.-]/.test(value) || digits >= 10;
}

interface ValueStats {
  /** Cells with a value. */
  filled: number;
  email: number;
  phone: number;
  /** Phone-like values written as phones are (a +, spaces, dashes): an id's digits never are. */
  phoneWritten: number;
  country: number;
  guid: number;
  url: number;
  /** Values with an `@`, and with three digits or more: what an email or a phone needs at least. */
  at: number;
  digits: number;
  /** yes/no, true/false and the like: a flag's values. */
  flags: number;
  /** Whole numbers 1, 2, 3... in order from the first row: a row count, not an id. */
  counting: boolean;
  distinct: number;
  /** Addresses ending with a country's name (`Berlin, Germany`). */
  addressCountry: number;
  /** Two to four words of letters (`Ann Lee`, `José de la Cruz`): what a person's name looks like. */
  personName: number;
  /** Countries written as a two-letter code (`DE`, and `Al`, `Bo`, `Cy` too). */
  countryCodes: number;
  /** Values without a letter of any script (`#1001`, `42`). */
  noLetters: number;
}

function valueStats(sample: readonly (readonly Cell[])[], index: number): ValueStats {
  const stats: ValueStats = {
    filled: 0,
    email: 0,
    phone: 0,
    phoneWritten: 0,
    country: 0,
    guid: 0,
    url: 0,
    at: 0,
    digits: 0,
    flags: 0,
    counting: true,
    distinct: 0,
    addressCountry: 0,
    personName: 0,
    countryCodes: 0,
    noLetters: 0,
  };
  const seen = new Set<string>();
  for (const row of sample) {
    const cell = row[index];
    if (cell === undefined) continue;
    const text = cleanCell(cell);
    if (text === '') continue;
    stats.filled++;
    seen.add(text);
    if (stats.counting && text !== String(stats.filled)) stats.counting = false;
    if (readBoolean(text) !== undefined) stats.flags++;
    const first = emailIn(cellValues(text, SEPARATORS)[0] ?? text);
    if (text.includes('@')) stats.at++;
    if (/\d\D*\d\D*\d/.test(text)) stats.digits++;
    if (EMAIL_RE.test(first)) stats.email++;
    else if (looksLikePhone(first) || looksLikePhone(text)) {
      stats.phone++;
      if (/[+()\s.-]/.test(first)) stats.phoneWritten++;
    } else if (GUID_RE.test(text)) stats.guid++;
    else if (URL_RE.test(text)) stats.url++;
    // Three capitals are a country's code only where the header says country: a column of
    // them may as well be nicknames (`BEN`, `KEN`) or departments (`FIN`, `MAR`).
    else if (/^\p{L}/u.test(text) && countryCode(text, { threeLetterCodes: false }) !== undefined) {
      stats.country++;
      if (text.length === 2) stats.countryCodes++;
    }
    if (addressCountry(text) !== undefined) stats.addressCountry++;
    if (PERSON_NAME_RE.test(text)) stats.personName++;
    if (!/\p{L}/u.test(text)) stats.noLetters++;
  }
  stats.distinct = seen.size;
  return stats;
}

/**
 * Whether the values bear out what the header's words say: a few values of anything do (a typo is
 * the row's problem, not the column's); many values none of which could be one (`Email Opt Out`
 * of yes/no, `Phone Type` of Mobile/Home) do not.
 */
function confirmed(role: 'email' | 'phone' | 'country', stats: ValueStats): boolean {
  // Too few values to judge by their share: only a column of flags (or, for phones, of no
  // digits at all) says it is not what its header says.
  if (stats.filled === 0) return true;
  if (stats.filled < 3) return stats.flags < stats.filled && (role !== 'phone' || stats.digits > 0);
  const share =
    role === 'email' ? Math.max(stats.email, stats.at) : role === 'phone' ? stats.digits : stats.country;
  return share >= stats.filled * 0.2;
}

/** What the values alone say, when they say it clearly. */
function roleByValues(stats: ValueStats, headerRole?: string): 'email' | 'phone' | 'country' | undefined {
  if (stats.filled === 0) return undefined;
  // A column of one address repeated (an owner's, a sender's) is not the contacts' own.
  const varied = stats.filled < 4 || stats.distinct >= stats.filled * 0.5;
  if (stats.email >= stats.filled * 0.9 && varied) return 'email';
  if (stats.phone >= stats.filled * 0.9 && stats.phoneWritten >= stats.filled * 0.3 && varied) return 'phone';
  // `No` is Norway's code, and a yes/no column's word: unless its header says country, such a
  // column is a flag (`Free Member`), not a country.
  const flags = headerRole !== 'country' && stats.flags >= stats.filled * 0.5;
  if (stats.country >= stats.filled * 0.95 && stats.filled >= 2 && !flags) return 'country';
  return undefined;
}

function phoneRank(words: readonly string[], index: number): number {
  const number = Number(words.find((w) => /^\d+$/.test(w)) ?? '1');
  const kind = has(words, MOBILE_WORDS)
    ? 0
    : has(words, MAIN_WORDS)
      ? 1
      : has(words, OTHER_PLACE_WORDS) || number > 1
        ? 4
        : has(words, WORK_WORDS)
          ? 2
          : has(words, HOME_WORDS)
            ? 3
            : 1;
  return kind * 10_000 + index;
}

/** Words a header of one field's words alone may have beside them (`E-mail 1 - Value`, `Phone No.`). */
const PLAIN_WORDS = new Set(['number', 'no', 'nr', '#', 'code', 'value', 'name', 'region']);
const plainHeader = (words: readonly string[]) =>
  words.every(
    (w) =>
      EMAIL_WORDS.has(w) ||
      PHONE_WORDS.has(w) ||
      COUNTRY_WORDS.has(w) ||
      EMAIL_QUALIFIERS.has(w) ||
      PLAIN_WORDS.has(w) ||
      /^\d+$/.test(w),
  );

/** A column with no value in the first rows is tried after those with values. */
const EMPTY_LAST = 100_000;

/** Words an email column of the contact's own may have beside the email word. */
const EMAIL_QUALIFIERS = new Set([
  'your',
  ...QUESTION_WORDS,
  'address',
  'addr',
  'value',
  'adresse',
  'direccion',
  'indirizzo',
  'electronico',
  'electronique',
  'elettronica',
  ...MAIN_WORDS,
  ...WORK_WORDS,
  ...HOME_WORDS,
  ...OTHER_PLACE_WORDS,
  ...PERSON_WORDS,
]);

/** The contact's own address by its words (`E-mail 2`, `Work Email`), not a buyer's or a guardian's. */
const ownEmail = (words: readonly string[]) =>
  words.every((w) => EMAIL_WORDS.has(w) || EMAIL_QUALIFIERS.has(w) || /^\d+$/.test(w));

function emailRank(words: readonly string[], index: number): number {
  const number = Number(words.find((w) => /^\d+$/.test(w)) ?? '1');
  const kind = !ownEmail(words)
    ? 3
    : has(words, MAIN_WORDS)
      ? 0
      : has(words, OTHER_PLACE_WORDS) || number > 1
        ? 2
        : 1;
  return kind * 10_000 + index;
}

/** Work, home or other: pairs a phone with the country column of the same address. */
export function placeOf(words: readonly string[]): Place | undefined {
  if (has(words, WORK_WORDS)) return 'work';
  if (has(words, HOME_WORDS)) return 'home';
  if (words.includes('other')) return 'other';
  return undefined;
}

/**
 * The roles of a table's columns from its header and a sample of its rows (the first rows of the
 * file; none is fine: then the words alone decide). `skip` marks columns already decided (by
 * `--map`, an `attr.` header or a recognised export), which are left as they are.
 */
export function inferColumns(
  header: readonly string[],
  sample: readonly (readonly Cell[])[],
  skip: (index: number) => boolean = () => false,
  /** Email columns decided before (the contract's own `email`): rows with one count as having one. */
  emailsDecided: readonly number[] = [],
): ColumnInference {
  const columns: (InferredColumn | undefined)[] = header.map(() => undefined);
  const notKeys: ColumnInference['notKeys'] = [];
  const overruled: ColumnInference['overruled'] = [];
  const lookAlikes: LookAlikeColumn[] = [];
  const rows = sample.length;
  const idCandidates: { index: number; tier: number }[] = [];
  const repeating: { index: number; tier: number; why: string }[] = [];
  const stats = header.map((_, i) => valueStats(sample, i));
  const words = header.map(headerWords);

  header.forEach((_, i) => {
    if (skip(i)) return;
    const s = stats[i]!;
    const w = words[i]!;
    const byWords = roleByWords(w);
    const byValues = roleByValues(s, byWords);
    let role: ColumnRole | undefined;
    let by: InferredColumn['by'] = 'words';
    switch (byWords) {
      case 'email':
      case 'phone':
      case 'country':
        // Values of another field say what the column is (`Contact` of addresses, `Mobile` of
        // emails). A header of the role's words alone (`Email`, `Phone 2`) keeps its role over
        // values that are merely wrong, which the rows then answer for; one with other words
        // (`Email Opt Out`, `Phone Type`) is what its values bear out.
        role =
          byValues && byValues !== byWords
            ? undefined
            : (plainHeader(w) && s.flags < s.filled * 0.8) || confirmed(byWords, s)
              ? byWords
              : undefined;
        break;
      case 'id': {
        const tier = idTier(w);
        // `Contact number`, `Mobilnummer` of phone numbers: the values say what the number is.
        if (tier === undefined || byValues === 'phone' || byValues === 'email') break;
        // `#`, `No.` counting 1, 2, 3 down the rows number the rows, not the contacts.
        if (s.counting && s.filled > 1 && !has(w, PERSON_WORDS) && !w.includes('id')) return;
        const why = notAKey(s, rows, tier <= 1);
        if (why !== undefined) {
          // Filled, but its values repeat: decided below, once the name and email columns are known.
          if (tier < 3 && !sparse(s, rows)) repeating.push({ index: i, tier, why });
          else if (tier <= 1) notKeys.push({ index: i, why });
        } else if (tier < 3 || (s.guid === s.filled && s.filled > 0)) {
          idCandidates.push({ index: i, tier });
        }
        return;
      }
      case 'first':
      case 'middle':
      case 'last':
      case 'suffix':
      case 'name': {
        // A name column of addresses or numbers is what its values are; of countries only where
        // they are named: two letters are as likely short names (`Al`, `Bo`, `Cy`) as codes.
        const values = byValues === 'country' && s.countryCodes > s.filled * 0.05 ? undefined : byValues;
        // One of no letters names no one: Shopify's orders write the order's as `Name` (`#1001`).
        if (values === undefined && s.filled > 0 && s.noLetters >= s.filled * 0.8) return;
        role = values ?? byWords;
        if (values) overruled.push({ index: i, header: byWords, values });
        if (values) by = 'values';
        break;
      }
      case 'none':
        // A state's two-letter codes read as countries (CA, DE, IN), a postcode's digits as a
        // phone number (Japan's `100-0001`), another thing's number as one (eBay's `Order
        // number`, `04-11872-55310`): no hint for those.
        if (
          byValues &&
          !(byValues === 'country' && has(w, STATE_WORDS)) &&
          !(byValues === 'phone' && (namesPostcode(w) || numbersAnotherThing(w)))
        )
          lookAlikes.push({ index: i, looksLike: byValues });
        return;
      default:
        if (byValues) {
          role = byValues;
          by = 'values';
        } else if (
          w.length === 1 &&
          WHOSE_NAME_WORDS.has(w[0]!) &&
          s.personName > 0 &&
          s.personName >= s.filled * 0.8
        ) {
          // A column headed by the person's word alone (`Guest`, `Attendee`, `Customer`) whose
          // values are people's names is the name.
          role = 'name';
          by = 'values';
        } else if (ownAddress(w) && s.addressCountry > 0 && s.addressCountry >= s.filled * 0.8) {
          // A whole address ending with its country: the row's country, for its phone.
          role = 'country';
          by = 'values';
        } else if (s.guid === s.filled && s.filled > 0 && notAKey(s, rows, false) === undefined) {
          // A column of unique GUIDs is a record's id whatever its name (a CRM's hidden key).
          idCandidates.push({ index: i, tier: 4 });
        }
    }
    if (role === undefined && byWords !== undefined && byValues) {
      // The header said one thing, the values another: the values decide.
      role = byValues;
      by = 'values';
      overruled.push({ index: i, header: byWords as ColumnRole, values: byValues });
    }
    if (role === undefined) return;
    columns[i] = {
      role,
      by,
      // A country its header names comes before one only its values do.
      rank:
        role === 'phone'
          ? phoneRank(w, i) + (s.filled === 0 ? EMPTY_LAST : 0)
          : role === 'email'
            ? emailRank(w, i) + (s.filled === 0 ? EMPTY_LAST : 0)
            : i +
              (by === 'values' ? 10_000 : 0) +
              (role === 'name' && !has(w, WHOSE_NAME_WORDS) ? 1_000 : 0) +
              // The name a person goes by (`First Name`: Bob) before their legal one (`Given
              // Name`, `legal_fname`: Robert), where a file has both.
              (role === 'first' && w.includes('first') === false ? 1_000 : 0) +
              (role === 'first' && w.includes('legal') ? 1_000 : 0),
    };
  });

  // An email column with words of someone else's (`Buyer Email`, `Email du responsable`) is a
  // fallback for no row: beside the contact's own, it is left unread and pointed at.
  const emails = columns.flatMap((c, i) => (c?.role === 'email' ? [i] : []));
  if (emailsDecided.length > 0 || emails.some((i) => ownEmail(words[i]!))) {
    for (const i of emails) {
      if (ownEmail(words[i]!)) continue;
      columns[i] = undefined;
      if (roleByValues(stats[i]!) === 'email') lookAlikes.push({ index: i, looksLike: 'email' });
    }
  }
  // Emails of several people (Calendly's `Invitee Email`, `Guest Email(s)`, `User Email`): the
  // contact is the person the name is of (`Invitee Name`); another's email is no fallback for
  // theirs. With no name of one of them, the words say no more (`Contact Email` and `Customer
  // Email` may well be one person's).
  const whose = (i: number) => words[i]!.find((w) => PERSON_WORDS.has(w));
  const people = new Set(emails.flatMap((i) => (columns[i] ? [whose(i)] : [])).filter(Boolean));
  const contact =
    people.size > 1
      ? columns.flatMap((c, i) =>
          c && ['name', 'first', 'last'].includes(c.role) && people.has(whose(i)) ? [whose(i)] : [],
        )[0]
      : undefined;
  if (contact !== undefined) {
    for (const i of emails) {
      if (!columns[i] || whose(i) === undefined || whose(i) === contact) continue;
      columns[i] = undefined;
      if (roleByValues(stats[i]!) === 'email') lookAlikes.push({ index: i, looksLike: 'email' });
    }
  }

  // How many rows have an email: a file that mostly has none needs another key.
  const emailColumns = [...emailsDecided, ...columns.flatMap((c, i) => (c?.role === 'email' ? [i] : []))];
  let withEmail = 0;
  for (const row of sample) {
    if (emailColumns.some((i) => EMAIL_RE.test(emailIn(cleanCell(row[i] ?? ''))))) withEmail++;
  }
  const emailShare = rows === 0 ? 1 : withEmail / rows;

  // A person's id that repeats keys the contact where nothing else could, most rows having no
  // email, and the rows sharing one are one person's (the same name wherever they give one): a
  // buyer's id on each of their orders (Etsy's `Buyer User ID`). An id of something a person
  // holds (`Subscription ID`, `Pass ID`) repeats with its holder too, so the header must name
  // the person; with emails, they key.
  const personColumns = columns.flatMap((c, i) => (c && PERSON_ROLES.has(c.role) ? [i] : []));
  for (const { index, tier, why } of repeating) {
    if (emailShare < 0.5 && has(words[index]!, PERSON_WORDS) && onePersonEach(sample, index, personColumns))
      idCandidates.push({ index, tier });
    else if (tier <= 1) notKeys.push({ index, why });
  }
  idCandidates.sort((a, b) => a.tier - b.tier || a.index - b.index);
  // An attendee's id numbers one registration, not the person, who has another at the next
  // event: where rows have emails, the email keys the contact, so one who comes back is the same.
  // In a file of tickets (a guest list), so does an id that names no person (Luma's `api_id`).
  // A ticket's own column (`ticket_name`, `Ticket Type`), not a count or a date of tickets.
  const ticketed = words.some((w) => has(w, HELD_WORDS) && has(w, TICKET_KIND_WORDS));
  const registration = (w: readonly string[]) =>
    has(w, REGISTRATION_WORDS) || (ticketed && !has(w, PERSON_WORDS) && !has(w, HELD_WORDS));
  const keys =
    emailColumns.length > 0 && emailShare >= 0.5
      ? idCandidates.filter(({ index }) => {
          const w = words[index]!;
          if (rowNumber(w)) {
            notKeys.push({
              index,
              why: 'a bare number sign or No. numbers the rows (or, in a form, one response), not the person: the next export may number them otherwise, so the email keys the contact',
            });
            return false;
          }
          if (!registration(w)) return true;
          notKeys.push({
            index,
            why: 'it numbers one registration, purchase or response (a ticket, a booking, a sale, a form or survey answered), not the person, who has another the next time: the email keys the contact',
          });
          return false;
        })
      : idCandidates;
  const id = keys[0]?.index;
  if (id !== undefined) columns[id] = { role: 'id', by: 'words', rank: id };
  let uniqueColumn: number | undefined;
  if (id === undefined && rows > 0 && emailShare < 0.5) {
    uniqueColumn = header.findIndex((_, i) => {
      if (skip(i)) return false;
      // A phone book: the number, where no row has an email.
      if (columns[i]?.role === 'phone')
        return withEmail === 0 && stats[i]!.filled === rows && stats[i]!.distinct === rows;
      if (columns[i]) return false;
      const s = stats[i]!;
      const w = words[i]!;
      const named = w.some((x) =>
        ['url', 'profile', 'link', 'username', 'handle', 'login', 'user'].includes(x),
      );
      return (named || s.url === s.filled) && s.filled === rows && s.distinct === rows;
    });
    if (uniqueColumn === -1) uniqueColumn = undefined;
  }
  return { columns, id, notKeys, overruled, lookAlikes, emailShare, uniqueColumn };
}

/** Another thing's number, id or version (`Order Number`, `Browser Version`), and no phone's. */
const numbersAnotherThing = (words: readonly string[]) =>
  has(words, OTHER_WORDS) && has(words, NUMBERING_WORDS) && !has(words, PHONE_WORDS);
const NUMBERING_WORDS = new Set([
  'number',
  'no',
  'nr',
  'num',
  '#',
  'id',
  'ref',
  'reference',
  'code',
  'version',
]);

/** More than a tenth of the rows have no value in the column (or none has). */
const sparse = (stats: ValueStats, rows: number) => rows - stats.filled > rows * 0.1 || stats.filled === 0;

const PERSON_ROLES = new Set<ColumnRole>(['name', 'first', 'last', 'email']);

/**
 * Whether every value of the column that comes back in the sample comes back with the same
 * person: each name or email column a row fills holds what the value's earlier rows held there
 * (case and spacing aside), and at least one such column agrees.
 */
function onePersonEach(
  sample: readonly (readonly Cell[])[],
  index: number,
  personColumns: readonly number[],
): boolean {
  if (personColumns.length === 0) return false;
  const text = (row: readonly Cell[], i: number) =>
    cleanCell(row[i] ?? '')
      .replace(/\s+/g, ' ')
      .toLowerCase();
  /** For each value, what its rows so far gave in each person column. */
  const seen = new Map<string, Map<number, string>>();
  let agreed = 0;
  for (const row of sample) {
    const value = text(row, index);
    if (value === '') continue;
    const person = seen.get(value) ?? new Map<number, string>();
    seen.set(value, person);
    for (const i of personColumns) {
      const cell = text(row, i);
      if (cell === '') continue;
      const earlier = person.get(i);
      if (earlier === undefined) person.set(i, cell);
      else if (earlier !== cell) return false;
      else agreed++;
    }
  }
  return agreed > 0;
}

/**
 * Why a column cannot key the contacts (rows without a value, or values that repeat), or
 * undefined. A column its header names the id may repeat some (a file updating a contact twice);
 * one only its values speak for must be unique.
 */
function notAKey(stats: ValueStats, rows: number, named: boolean): string | undefined {
  if (rows === 0) return undefined;
  const empty = rows - stats.filled;
  if (empty > rows * 0.1 || stats.filled === 0) return `${empty} of ${rows} rows have no value in it`;
  if (stats.distinct < stats.filled * (named ? 0.5 : 1)) {
    return `its values repeat (${stats.filled - stats.distinct} of the first ${rows} rows repeat an earlier value)`;
  }
  return undefined;
}
