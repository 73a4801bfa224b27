// Every rule toggle of app/engine/rules.py with its default, its values and a one-line
// explanation in each language. House rules are marked: the engine refuses them for now.
import { lang } from "./i18n.js";

const c = (en, ko, uk) => ({ en, ko, uk });

export const RULES = [
  { key: "deck", type: "choice", default: "modern", choices: ["modern", "classic", "classic_blank"],
    about: c("Which deck: 112 cards with Shuffle Hands and Customizable, the classic 108, or 108 plus 4 blanks.",
      "덱: 셔플 핸드와 커스텀 와일드가 든 112장, 클래식 108장, 또는 108장 + 빈 카드 4장.",
      "Колода: 112 карт із перемішуванням і своїми чорними картами, класичні 108 або 108 плюс 4 пустушки.") },
  { key: "hand_size", type: "int", default: 7, min: 5, max: 10,
    about: c("Cards dealt to each player.", "처음에 나눠 주는 카드 수.", "Скільки карт роздають кожному.") },
  { key: "first_card", type: "choice", default: "official", choices: ["official", "number_only"],
    about: c("Official: the first card's effect applies. Number only: turn until a number card shows.",
      "공식: 첫 카드의 효과가 적용됩니다. 숫자만: 숫자 카드가 나올 때까지 뒤집습니다.",
      "Офіційно: діє ефект першої карти. Лише цифра: відкривають, доки не випаде цифрова.") },
  { key: "draw_until_playable", type: "bool", default: false,
    about: c("Keep drawing until you draw a card you can play.", "낼 수 있는 카드가 나올 때까지 계속 뽑습니다.",
      "Брати з прикупу, доки не трапиться карта, яку можна покласти.") },
  { key: "must_play_drawn", type: "bool", default: false,
    about: c("A playable drawn card must be played.", "뽑은 카드를 낼 수 있으면 반드시 내야 합니다.",
      "Взяту карту, яка підходить, треба покласти.") },
  { key: "challenge", type: "choice", default: "official", choices: ["official", "return", "off"],
    about: c("Wild Draw Four challenge: official (guilty draws 4, else challenger 6), return the card, or no challenges.",
      "와일드 드로우 4 도전: 공식(걸리면 4장, 아니면 도전자 6장), 카드 되돌리기, 도전 없음.",
      "Перевірка на чесність: офіційна (винний бере 4, інакше той, хто перевіряв, — 6), повернення карти або без перевірок.") },
  { key: "uno_penalty", type: "int", default: 2, min: 0, max: 10,
    about: c("Cards drawn by a player caught without saying UNO.", "우노를 외치지 않고 잡힌 사람이 뽑는 카드 수.",
      "Скільки бере гравець, якого зловили без «УНО».") },
  { key: "false_catch_penalty", type: "int", default: 0, min: 0, max: 10,
    about: c("Cards a wrong catch costs the catcher (0: merely refused).", "잘못 잡은 사람이 뽑는 카드 수 (0: 그냥 무효).",
      "Скільки бере той, хто зловив помилково (0 — просто не зараховується).") },
  { key: "uno_grace_ms", type: "int", default: 0, min: 0, max: 5000,
    about: c("Milliseconds after the second-to-last card before anyone may catch (fair on slow networks).",
      "마지막 전 카드를 낸 뒤 잡기가 가능해지기까지의 시간(밀리초). 느린 네트워크에도 공정하게.",
      "Мілісекунди після передостанньої карти, поки ловити ще не можна (чесно для повільної мережі).") },
  { key: "special_wild_points", type: "int", default: 50, min: 0, max: 100,
    about: c("Points for Shuffle Hands and Customizable cards left in a hand.", "패에 남은 와일드 셔플 핸드와 커스텀 와일드의 점수.",
      "Очки за карти перемішування і свої чорні карти, що лишилися на руках.") },
  { key: "scoring", type: "choice", default: "winner_takes", choices: ["winner_takes", "lowest_wins", "lazy"],
    about: c("Winner takes all other hands' points; lowest total wins; or lazy (count round wins only).",
      "이긴 사람이 남의 패 점수를 모두 가져감, 합계가 낮은 사람이 승리, 또는 라운드 승리만 세기.",
      "Переможець забирає очки інших, виграє найменша сума, або «ледачий» (рахуються лише виграні тури).") },
  { key: "target", type: "int", default: 500, min: 1, max: 100000,
    about: c("Points that end the match (rounds, for lazy scoring).", "경기를 끝내는 점수 (라운드 승리만 세면 라운드 수).",
      "Очки, на яких закінчується матч (для «ледачого» — кількість турів).") },
  { key: "lone_zero_50", type: "bool", default: false,
    about: c("A hand of just one 0 is worth 50 points.", "0 한 장만 남은 패는 50점입니다.",
      "Одна-єдина карта «0» на руках коштує 50 очок.") },
  { key: "turn_seconds", type: "int", default: 30, min: 0, max: 600,
    about: c("Seconds per turn before the server draws for you (0: no timer).", "시간이 다 되면 서버가 대신 뽑기까지의 초 (0: 제한 없음).",
      "Секунд на хід, після чого сервер бере карту за вас (0 — без таймера).") },
  { key: "abandon_seconds", type: "int", default: 60, min: 0, max: 3600,
    about: c("Seconds offline before the host may put a bot in a player's seat.", "연결이 끊긴 뒤 방장이 봇으로 바꿀 수 있기까지의 초.",
      "Скільки секунд гравець може бути офлайн, перш ніж господар замінить його ботом.") },
  { key: "jump_in", type: "bool", default: false, house: true,
    about: c("Play an identical card out of turn to jump in.", "똑같은 카드가 있으면 차례가 아니어도 가로채 낼 수 있습니다.",
      "Точно таку саму карту можна покласти поза чергою — перехопити хід.") },
  { key: "seven_zero", type: "bool", default: false, house: true,
    about: c("A 7 swaps hands with a chosen player; a 0 passes every hand on.", "7은 고른 사람과 패를 바꾸고, 0은 모두 패를 넘깁니다.",
      "«7» — обмін картами з обраним гравцем, «0» — усі передають карти далі.") },
  { key: "stacking", type: "choice", default: "off", choices: ["off", "progressive", "mixed", "deflect"], house: true,
    about: c("Answer a Draw Two or Wild Draw Four with another: the amounts add up (or deflect).",
      "드로우 2나 와일드 드로우 4에 같은 카드로 받아치기: 장수가 누적됩니다 (또는 넘기기).",
      "Відповісти на «Візьми дві» чи «+4» такою самою: кількість додається (або передається).") },
  { key: "reverse_deflects", type: "bool", default: false, house: true,
    about: c("A Reverse of the current color sends a draw penalty back.", "현재 색의 리버스로 드로우 카드를 되돌립니다.",
      "«Навпаки» поточного кольору повертає штраф тому, хто його поклав.") },
  { key: "five_exchange", type: "bool", default: false, house: true,
    about: c("Playing a 5 lets you exchange one card with any player.", "5를 내면 아무와 카드 한 장을 교환합니다.",
      "Поклавши «5», можна обмінятися однією картою з будь-ким.") },
  { key: "silent", type: "choice", default: "off", choices: ["off", "twos", "wilds"], house: true,
    about: c("After a 2 (or a Wild) chat is closed; whoever talks draws 2.", "2(또는 와일드) 이후 채팅 금지: 말하면 2장 뽑기.",
      "Після «2» (або чорної карти) — мовчанка: хто заговорить, бере 2.") },
  { key: "color_wheel", type: "bool", default: false, house: true,
    about: c("A Wild turns the color to the next on the wheel instead of choosing.", "와일드를 내면 색을 고르지 않고 순서대로 다음 색이 됩니다.",
      "Чорна карта не дає вибору: колір змінюється на наступний по колу.") },
  { key: "blank_plus10", type: "bool", default: false, house: true,
    about: c("Blank cards are a wild +10 (needs the blank deck).", "빈 카드는 와일드 +10입니다 (빈 카드 덱 필요).",
      "Пустушки — чорні «+10 карт» (потрібна колода з пустушками).") },
  { key: "play_to_last", type: "bool", default: false, house: true,
    about: c("Play on after someone goes out, until one player is left.", "누가 나가도 한 명이 남을 때까지 계속합니다.",
      "Грати далі, доки не залишиться один гравець.") },
  { key: "shrinking_hands", type: "bool", default: false, house: true,
    about: c("Emptying your hand deals you a smaller new one; win holding a single dealt card.",
      "패를 다 내면 더 적은 새 패를 받습니다. 한 장을 받은 뒤 나가면 승리.",
      "Скинувши все, отримуєте менше нових карт; виграє той, хто вийде з однією роздачею.") },
  { key: "misplay_penalty", type: "int", default: 0, min: 0, max: 10, house: true,
    about: c("Cards an illegal play attempt costs (0: merely refused).", "규칙에 맞지 않는 카드를 내려 하면 뽑는 카드 수 (0: 그냥 거절).",
      "Скільки бере той, хто спробував покласти неправильну карту (0 — просто відмова).") },
  { key: "uno_slap", type: "bool", default: false, house: true,
    about: c("When someone calls UNO everyone slaps; the last to slap draws 2.", "누가 우노를 외치면 모두 센터에 손을 올립니다. 가장 늦은 사람이 2장 뽑기.",
      "Коли хтось каже «УНО», усі кладуть руку в центр; останній бере 2.") },
  { key: "slap_seconds", type: "int", default: 3, min: 1, max: 30, house: true,
    about: c("Seconds everyone has to slap.", "센터에 손을 올릴 수 있는 시간(초).", "Скільки секунд є, щоб покласти руку в центр.") },
];

export const PRESETS = {
  official: {},
  house: { jump_in: true, stacking: "progressive", seven_zero: true },
  seeded: { first_card: "number_only", challenge: "return", stacking: "deflect", jump_in: true, uno_penalty: 2, scoring: "winner_takes" },
  party: { jump_in: true, stacking: "progressive", seven_zero: true, uno_slap: true, silent: "twos", five_exchange: true },
};

export const DEFAULT_TARGET = { winner_takes: 500, lowest_wins: 200, lazy: 5 };

export function ruleAbout(rule) {
  return rule.about[lang()] || rule.about.en;
}

/** The values a preset gives every key (the target follows the scoring, as in rules.py). */
export function presetValues(name) {
  const values = Object.fromEntries(RULES.map((r) => [r.key, r.default]));
  Object.assign(values, PRESETS[name] || {});
  values.target = DEFAULT_TARGET[values.scoring] ?? values.target;
  return values;
}

const CHOICE_LABELS = {
  modern: c("modern (112)", "모던 (112장)", "сучасна (112)"),
  classic: c("classic (108)", "클래식 (108장)", "класична (108)"),
  classic_blank: c("classic + blanks", "클래식 + 빈 카드", "класична + пустушки"),
  official: c("official", "공식", "офіційно"),
  number_only: c("number only", "숫자만", "лише цифра"),
  return: c("return the card", "카드 되돌리기", "повернути карту"),
  off: c("off", "끔", "вимкнено"),
  winner_takes: c("winner takes (500)", "이긴 사람이 가져감 (500)", "переможець забирає (500)"),
  lowest_wins: c("lowest wins (200)", "낮은 점수 승리 (200)", "найменше виграє (200)"),
  lazy: c("lazy (round wins)", "라운드 승리만", "«ледачий» (тури)"),
  progressive: c("progressive", "누적", "накопичення"),
  mixed: c("mixed +2/+4", "+2/+4 섞기", "змішане +2/+4"),
  deflect: c("deflect", "넘기기", "передати"),
  twos: c("after a 2", "2 이후", "після «2»"),
  wilds: c("after a Wild", "와일드 이후", "після чорної"),
};

export function choiceLabel(value) {
  const label = CHOICE_LABELS[value];
  return label ? label[lang()] || label.en : value;
}

const KEY_LABELS = {
  deck: c("Deck", "덱", "Колода"), hand_size: c("Hand size", "처음 패", "Карт на руках"),
  first_card: c("First card", "첫 카드", "Перша карта"),
  draw_until_playable: c("Draw until playable", "낼 때까지 뽑기", "Брати до потрібної"),
  must_play_drawn: c("Must play drawn card", "뽑은 카드 꼭 내기", "Обов'язково покласти взяту"),
  challenge: c("Wild Draw Four challenge", "와일드 드로우 4 도전", "Перевірка на чесність"),
  uno_penalty: c("UNO penalty", "우노 패널티", "Штраф за «УНО»"),
  false_catch_penalty: c("Wrong catch penalty", "잘못 잡기 패널티", "Штраф за помилковий «Зловив!»"),
  uno_grace_ms: c("Catch grace (ms)", "잡기 유예 (ms)", "Пауза перед ловом (мс)"),
  special_wild_points: c("Special wild points", "특수 와일드 점수", "Очки спецкарт"),
  scoring: c("Scoring", "점수 방식", "Підрахунок"), target: c("Target", "목표", "Мета"),
  lone_zero_50: c("Lone 0 is 50", "제로 리셋 (0 한 장은 50점)", "«Скинь нуль» (одинокий «0» — 50)"),
  turn_seconds: c("Turn timer (s)", "차례 시간 (초)", "Час на хід (с)"),
  abandon_seconds: c("Offline before bot (s)", "봇 교체까지 (초)", "До заміни ботом (с)"),
  jump_in: c("Jump-in", "가로채기", "Перехоплення ходу"), seven_zero: c("7-0", "세븐 제로", "Сім-нуль"),
  stacking: c("Stacking", "누적", "Накопичення"), reverse_deflects: c("Reverse deflects", "리버스로 되돌리기", "«Навпаки» повертає"),
  five_exchange: c("5 exchange", "카드 교환 (5)", "Обмін карти на «5»"), silent: c("Silence", "사일런트 투 (침묵)", "Мовчанка"),
  color_wheel: c("Color wheel", "원 색상 변경", "Кольори по колу"), blank_plus10: c("Blank +10", "빈 카드 +10", "Пустушка «+10»"),
  play_to_last: c("Play to the last", "끝까지", "До останнього"), shrinking_hands: c("Shrinking hands", "7라운드 우노", "В 7 раундів"),
  misplay_penalty: c("Misplay penalty", "잘못 내기 패널티", "Штраф за помилку"), uno_slap: c("UNO slap", "우노 센터로", "«В центр»"),
  slap_seconds: c("Slap time (s)", "센터로 시간 (초)", "Час на «в центр» (с)"),
};

export function ruleLabel(key) {
  const label = KEY_LABELS[key];
  return label ? label[lang()] || label.en : key;
}
