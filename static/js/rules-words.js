// The rules form's words, written by hand: each toggle's group in the form, its name and a
// one-line explanation in English, Korean and Ukrainian, whether it is a house rule (RULES.md
// section 8), and the name of each choice. Which keys exist, their kinds, defaults and limits
// are the server's (rules-schema.js, generated). The table below is strict JSON, so that
// tests/test_rules_schema.py can read it and check every key has its words in all three.
import { lang } from "./i18n.js";

export const WORDS = {
  "groups": ["deal", "cards", "turns", "uno", "scoring", "table", "timers"],
  "rules": {
    "deck": {"group": "deal",
      "label": {"en": "Deck", "ko": "덱", "uk": "Колода"},
      "about": {"en": "Which deck: 112 cards with Shuffle Hands and Customizable, the classic 108, or 108 plus 4 blanks.", "ko": "덱: 셔플 핸드와 커스텀 와일드가 든 112장, 클래식 108장, 또는 108장 + 빈 카드 4장.", "uk": "Колода: 112 карт із перемішуванням і своїми чорними картами, класичні 108 або 108 плюс 4 пустушки."}},
    "hand_size": {"group": "deal",
      "label": {"en": "Hand size", "ko": "처음 패", "uk": "Карт на руках"},
      "about": {"en": "Cards dealt to each player.", "ko": "처음에 나눠 주는 카드 수.", "uk": "Скільки карт роздають кожному."}},
    "first_card": {"group": "deal",
      "label": {"en": "First card", "ko": "첫 카드", "uk": "Перша карта"},
      "about": {"en": "Official: the first card's effect applies. Number only: turn until a number card shows.", "ko": "공식: 첫 카드의 효과가 적용됩니다. 숫자만: 숫자 카드가 나올 때까지 뒤집습니다.", "uk": "Офіційно: діє ефект першої карти. Лише цифра: відкривають, доки не випаде цифрова."}},
    "draw_until_playable": {"group": "turns",
      "label": {"en": "Draw until playable", "ko": "낼 때까지 뽑기", "uk": "Брати до потрібної"},
      "about": {"en": "Keep drawing until you draw a card you can play.", "ko": "낼 수 있는 카드가 나올 때까지 계속 뽑습니다.", "uk": "Брати з прикупу, доки не трапиться карта, яку можна покласти."}},
    "must_play_drawn": {"group": "turns",
      "label": {"en": "Must play drawn card", "ko": "뽑은 카드 꼭 내기", "uk": "Обов'язково покласти взяту"},
      "about": {"en": "A playable drawn card must be played.", "ko": "뽑은 카드를 낼 수 있으면 반드시 내야 합니다.", "uk": "Взяту карту, яка підходить, треба покласти."}},
    "challenge": {"group": "turns",
      "label": {"en": "Wild Draw Four challenge", "ko": "와일드 드로우 4 도전", "uk": "Перевірка на чесність"},
      "about": {"en": "Wild Draw Four challenge: official (guilty draws 4, else challenger 6), return the card, or no challenges.", "ko": "와일드 드로우 4 도전: 공식(걸리면 4장, 아니면 도전자 6장), 카드 되돌리기, 도전 없음.", "uk": "Перевірка на чесність: офіційна (винний бере 4, інакше той, хто перевіряв, — 6), повернення карти або без перевірок."}},
    "uno_penalty": {"group": "uno",
      "label": {"en": "UNO penalty", "ko": "우노 패널티", "uk": "Штраф за «УНО»"},
      "about": {"en": "Cards drawn by a player caught without saying UNO.", "ko": "우노를 외치지 않고 잡힌 사람이 뽑는 카드 수.", "uk": "Скільки бере гравець, якого зловили без «УНО»."}},
    "false_catch_penalty": {"group": "uno",
      "label": {"en": "Wrong catch penalty", "ko": "잘못 잡기 패널티", "uk": "Штраф за помилковий «Зловив!»"},
      "about": {"en": "Cards a wrong catch costs the catcher (0: merely refused).", "ko": "잘못 잡은 사람이 뽑는 카드 수 (0: 그냥 무효).", "uk": "Скільки бере той, хто зловив помилково (0 — просто не зараховується)."}},
    "uno_grace_ms": {"group": "uno",
      "label": {"en": "Catch grace (ms)", "ko": "잡기 유예 (ms)", "uk": "Пауза перед ловом (мс)"},
      "about": {"en": "Milliseconds after the second-to-last card before anyone may catch (fair on slow networks).", "ko": "마지막 전 카드를 낸 뒤 잡기가 가능해지기까지의 시간(밀리초). 느린 네트워크에도 공정하게.", "uk": "Мілісекунди після передостанньої карти, поки ловити ще не можна (чесно для повільної мережі)."}},
    "special_wild_points": {"group": "scoring",
      "label": {"en": "Special wild points", "ko": "특수 와일드 점수", "uk": "Очки спецкарт"},
      "about": {"en": "Points for Shuffle Hands and Customizable cards left in a hand.", "ko": "패에 남은 와일드 셔플 핸드와 커스텀 와일드의 점수.", "uk": "Очки за карти перемішування і свої чорні карти, що лишилися на руках."}},
    "scoring": {"group": "scoring",
      "label": {"en": "Scoring", "ko": "점수 방식", "uk": "Підрахунок"},
      "about": {"en": "Winner takes all other hands' points; lowest total wins; or lazy (count round wins only).", "ko": "이긴 사람이 남의 패 점수를 모두 가져감, 합계가 낮은 사람이 승리, 또는 라운드 승리만 세기.", "uk": "Переможець забирає очки інших, виграє найменша сума, або «ледачий» (рахуються лише виграні тури)."}},
    "target": {"group": "scoring",
      "label": {"en": "Target", "ko": "목표", "uk": "Мета"},
      "about": {"en": "Points that end the match (rounds, for lazy scoring).", "ko": "경기를 끝내는 점수 (라운드 승리만 세면 라운드 수).", "uk": "Очки, на яких закінчується матч (для «ледачого» — кількість турів)."}},
    "round_limit": {"group": "scoring",
      "label": {"en": "Round limit", "ko": "라운드 제한", "uk": "Ліміт турів"},
      "about": {"en": "Rounds after which the match ends and the best total wins (0: no limit).", "ko": "이 라운드 수가 지나면 경기가 끝나고 가장 좋은 합계가 이깁니다 (0: 제한 없음).", "uk": "Після скількох турів матч закінчується і перемагає найкращий підсумок (0 — без ліміту)."}},
    "lone_zero_50": {"group": "scoring",
      "label": {"en": "Lone 0 is 50", "ko": "제로 리셋 (0 한 장은 50점)", "uk": "«Скинь нуль» (одинокий «0» — 50)"},
      "about": {"en": "A hand of just one 0 is worth 50 points.", "ko": "0 한 장만 남은 패는 50점입니다.", "uk": "Одна-єдина карта «0» на руках коштує 50 очок."}},
    "turn_seconds": {"group": "timers",
      "label": {"en": "Turn timer (s)", "ko": "차례 시간 (초)", "uk": "Час на хід (с)"},
      "about": {"en": "Seconds per turn before the server draws for you (0: no timer).", "ko": "시간이 다 되면 서버가 대신 뽑기까지의 초 (0: 제한 없음).", "uk": "Секунд на хід, після чого сервер бере карту за вас (0 — без таймера)."}},
    "abandon_seconds": {"group": "timers",
      "label": {"en": "Offline before bot (s)", "ko": "봇 교체까지 (초)", "uk": "До заміни ботом (с)"},
      "about": {"en": "Seconds offline before the host may put a bot in a player's seat.", "ko": "연결이 끊긴 뒤 방장이 봇으로 바꿀 수 있기까지의 초.", "uk": "Скільки секунд гравець може бути офлайн, перш ніж господар замінить його ботом."}},
    "idle_timeouts": {"group": "timers",
      "label": {"en": "Timeouts before a bot plays", "ko": "봇이 대신하기까지 시간 초과", "uk": "Пропусків до гри бота"},
      "about": {"en": "Turns in a row that run out before a bot plays the seat until its player is back (0: never).", "ko": "연속으로 시간이 초과되면 플레이어가 돌아올 때까지 봇이 대신 둡니다 (0: 안 함).", "uk": "Скільки ходів поспіль може збігти час, перш ніж за гравця зіграє бот, доки той не повернеться (0 — ніколи)."}},
    "jump_in": {"group": "cards", "house": true,
      "label": {"en": "Jump-in", "ko": "가로채기", "uk": "Перехоплення ходу"},
      "about": {"en": "Play an identical card out of turn to jump in.", "ko": "똑같은 카드가 있으면 차례가 아니어도 가로채 낼 수 있습니다.", "uk": "Точно таку саму карту можна покласти поза чергою — перехопити хід."}},
    "seven_zero": {"group": "cards", "house": true,
      "label": {"en": "7-0", "ko": "세븐 제로", "uk": "Сім-нуль"},
      "about": {"en": "A 7 swaps hands with a chosen player; a 0 passes every hand on.", "ko": "7은 고른 사람과 패를 바꾸고, 0은 모두 패를 넘깁니다.", "uk": "«7» — обмін картами з обраним гравцем, «0» — усі передають карти далі."}},
    "stacking": {"group": "cards", "house": true,
      "label": {"en": "Stacking", "ko": "누적", "uk": "Накопичення"},
      "about": {"en": "Answer a Draw Two or Wild Draw Four with another: the amounts add up (or deflect).", "ko": "드로우 2나 와일드 드로우 4에 같은 카드로 받아치기: 장수가 누적됩니다 (또는 넘기기).", "uk": "Відповісти на «Візьми дві» чи «+4» такою самою: кількість додається (або передається)."}},
    "reverse_deflects": {"group": "cards", "house": true,
      "label": {"en": "Reverse deflects", "ko": "리버스로 되돌리기", "uk": "«Навпаки» повертає"},
      "about": {"en": "A Reverse of the current color sends a draw penalty back.", "ko": "현재 색의 리버스로 드로우 카드를 되돌립니다.", "uk": "«Навпаки» поточного кольору повертає штраф тому, хто його поклав."}},
    "five_exchange": {"group": "cards", "house": true,
      "label": {"en": "5 exchange", "ko": "카드 교환 (5)", "uk": "Обмін карти на «5»"},
      "about": {"en": "Playing a 5 lets you exchange one card with any player.", "ko": "5를 내면 아무와 카드 한 장을 교환합니다.", "uk": "Поклавши «5», можна обмінятися однією картою з будь-ким."}},
    "silent": {"group": "table", "house": true,
      "label": {"en": "Silence", "ko": "사일런트 투 (침묵)", "uk": "Мовчанка"},
      "about": {"en": "After a 2 (or a Wild) chat is closed; whoever talks draws 2.", "ko": "2(또는 와일드) 이후 채팅 금지: 말하면 2장 뽑기.", "uk": "Після «2» (або чорної карти) — мовчанка: хто заговорить, бере 2."}},
    "color_wheel": {"group": "cards", "house": true,
      "label": {"en": "Color wheel", "ko": "원 색상 변경", "uk": "Кольори по колу"},
      "about": {"en": "A Wild turns the color to the next on the wheel instead of choosing.", "ko": "와일드를 내면 색을 고르지 않고 순서대로 다음 색이 됩니다.", "uk": "Чорна карта не дає вибору: колір змінюється на наступний по колу."}},
    "blank_plus10": {"group": "cards", "house": true,
      "label": {"en": "Blank +10", "ko": "빈 카드 +10", "uk": "Пустушка «+10»"},
      "about": {"en": "Blank cards are a wild +10 (needs the blank deck).", "ko": "빈 카드는 와일드 +10입니다 (빈 카드 덱 필요).", "uk": "Пустушки — чорні «+10 карт» (потрібна колода з пустушками)."}},
    "play_to_last": {"group": "scoring", "house": true,
      "label": {"en": "Play to the last", "ko": "끝까지", "uk": "До останнього"},
      "about": {"en": "Play on after someone goes out, until one player is left.", "ko": "누가 나가도 한 명이 남을 때까지 계속합니다.", "uk": "Грати далі, доки не залишиться один гравець."}},
    "shrinking_hands": {"group": "scoring", "house": true,
      "label": {"en": "Shrinking hands", "ko": "7라운드 우노", "uk": "В 7 раундів"},
      "about": {"en": "Emptying your hand deals you a smaller new one; win holding a single dealt card.", "ko": "패를 다 내면 더 적은 새 패를 받습니다. 한 장을 받은 뒤 나가면 승리.", "uk": "Скинувши все, отримуєте менше нових карт; виграє той, хто вийде з однією роздачею."}},
    "misplay_penalty": {"group": "turns", "house": true,
      "label": {"en": "Misplay penalty", "ko": "잘못 내기 패널티", "uk": "Штраф за помилку"},
      "about": {"en": "Cards an illegal play attempt costs (0: merely refused).", "ko": "규칙에 맞지 않는 카드를 내려 하면 뽑는 카드 수 (0: 그냥 거절).", "uk": "Скільки бере той, хто спробував покласти неправильну карту (0 — просто відмова)."}},
    "uno_slap": {"group": "uno", "house": true,
      "label": {"en": "UNO slap", "ko": "우노 센터로", "uk": "«В центр»"},
      "about": {"en": "When someone calls UNO everyone slaps; the last to slap draws 2.", "ko": "누가 우노를 외치면 모두 센터에 손을 올립니다. 가장 늦은 사람이 2장 뽑기.", "uk": "Коли хтось каже «УНО», усі кладуть руку в центр; останній бере 2."}},
    "slap_seconds": {"group": "uno", "house": true,
      "label": {"en": "Slap time (s)", "ko": "센터로 시간 (초)", "uk": "Час на «в центр» (с)"},
      "about": {"en": "Seconds everyone has to slap.", "ko": "센터에 손을 올릴 수 있는 시간(초).", "uk": "Скільки секунд є, щоб покласти руку в центр."}},
    "skip_deflects": {"group": "cards", "house": true,
      "label": {"en": "Skip deflects", "ko": "스킵으로 넘기기", "uk": "«Пропусти хід» передає"},
      "about": {"en": "During a stack, a Skip of the current color passes the whole draw on to the next player.", "ko": "누적 중에 현재 색의 스킵을 내면 쌓인 장수를 그대로 다음 사람에게 넘깁니다.", "uk": "Під час накопичення «Пропусти хід» поточного кольору передає весь штраф наступному гравцю."}},
    "revenge": {"group": "cards", "house": true,
      "label": {"en": "Revenge stacking", "ko": "리벤지 누적", "uk": "Помста"},
      "about": {"en": "(With stacking) a draw card that answers a stack adds twice its value.", "ko": "(누적과 함께) 누적에 받아친 드로우 카드는 두 배로 더해집니다.", "uk": "(З накопиченням) карта, якою відповідають на накопичення, додає подвійну кількість."}},
    "multi_play": {"group": "cards", "house": true,
      "label": {"en": "Several cards at once", "ko": "여러 장 한 번에", "uk": "Кілька карт разом"},
      "about": {"en": "Play two or more number cards of the same number in one turn.", "ko": "같은 숫자 카드 두 장 이상을 한 차례에 함께 냅니다.", "uk": "Покласти за один хід дві чи більше цифрових карт з однаковою цифрою."}},
    "bomb": {"group": "cards", "house": true,
      "label": {"en": "Bomb", "ko": "폭탄", "uk": "Бомба"},
      "about": {"en": "(With several at once) playing three or more cards makes everyone else draw 1.", "ko": "(여러 장 한 번에와 함께) 세 장 이상을 한 번에 내면 나머지 모두가 1장씩 뽑습니다.", "uk": "(З «кілька карт разом») три чи більше карт за раз — усі інші беруть по 1."}},
    "no_wild_finish": {"group": "cards", "house": true,
      "label": {"en": "No wild finish", "ko": "와일드로 끝내기 금지", "uk": "Не закінчувати чорною"},
      "about": {"en": "A wild card may not be your last card.", "ko": "와일드 카드로 마지막 카드를 낼 수 없습니다.", "uk": "Чорна карта не може бути останньою."}},
    "no_draw_finish": {"group": "cards", "house": true,
      "label": {"en": "No draw-card finish", "ko": "드로우 카드로 끝내기 금지", "uk": "Не закінчувати штрафною"},
      "about": {"en": "A Draw Two or Wild Draw Four may not be your last card.", "ko": "드로우 2나 와일드 드로우 4로 마지막 카드를 낼 수 없습니다.", "uk": "«Візьми дві» чи «Замов колір і візьми чотири» не може бути останньою картою."}},
    "seven_swap": {"group": "cards", "house": true,
      "label": {"en": "7 swaps with", "ko": "7 교환 상대", "uk": "«7» — обмін з"},
      "about": {"en": "(With 7-0) a 7 swaps with a chosen player, or always with the next one.", "ko": "(세븐 제로와 함께) 7은 고른 사람, 또는 항상 다음 사람과 패를 바꿉니다.", "uk": "(Із «сім-нуль») «7» — обмін з обраним гравцем або завжди з наступним."}},
    "forced_play": {"group": "turns", "house": true,
      "label": {"en": "Forced play", "ko": "강제 내기", "uk": "Обов'язковий хід"},
      "about": {"en": "No drawing while you hold a card you can play.", "ko": "낼 수 있는 카드가 있으면 뽑을 수 없습니다.", "uk": "Не можна брати з прикупу, якщо є карта, яку можна покласти."}},
    "hand_limit": {"group": "turns", "house": true,
      "label": {"en": "Hand limit", "ko": "패 한도", "uk": "Ліміт карт"},
      "about": {"en": "Holding this many cards you draw no more by choice; with nothing to play you pass (0: off).", "ko": "이 장수가 되면 스스로 뽑을 수 없고, 낼 카드가 없으면 패스합니다 (0: 끔).", "uk": "Маючи стільки карт, більше не берете самі; якщо нічим ходити — пас (0 — вимкнено)."}},
    "no_hints": {"group": "turns", "house": true,
      "label": {"en": "No hints", "ko": "힌트 없음", "uk": "Без підказок"},
      "about": {"en": "Playable cards are not highlighted: find them yourself.", "ko": "낼 수 있는 카드를 표시하지 않습니다. 직접 찾으세요.", "uk": "Карти, які можна покласти, не підсвічуються: шукайте самі."}},
    "uno_call": {"group": "uno", "house": true,
      "label": {"en": "UNO call", "ko": "우노 외치기", "uk": "Виклик «УНО»"},
      "about": {"en": "Official; strict (only a call holding one card counts); or off (no calls, no catches).", "ko": "공식, 엄격(한 장 남았을 때 외친 것만 인정), 끔(외치기도 잡기도 없음).", "uk": "Офіційно; суворо (зараховується лише виклик з однією картою); або вимкнено (ні викликів, ні ловлі)."}},
    "double_score": {"group": "scoring", "house": true,
      "label": {"en": "Double points", "ko": "점수 두 배", "uk": "Подвійні очки"},
      "about": {"en": "Every round's points count twice.", "ko": "매 라운드 점수가 두 배로 계산됩니다.", "uk": "Очки кожного туру рахуються вдвічі."}},
    "elimination": {"group": "scoring", "house": true,
      "label": {"en": "Elimination", "ko": "탈락전", "uk": "На виліт"},
      "about": {"en": "After each round the one holding the most cards leaves; the last one left wins.", "ko": "매 라운드 끝에 카드가 가장 많은 사람이 탈락하고, 마지막까지 남은 사람이 이깁니다.", "uk": "Після кожного туру вибуває той, у кого найбільше карт; виграє останній."}},
    "teams": {"group": "table", "house": true,
      "label": {"en": "Teams", "ko": "팀전", "uk": "Команди"},
      "about": {"en": "Two teams in alternating seats (4, 6, 8 or 10 players); partners win together.", "ko": "번갈아 앉은 두 팀(4, 6, 8, 10명). 같은 팀은 함께 이깁니다.", "uk": "Дві команди через одного (4, 6, 8 чи 10 гравців); партнери виграють разом."}},
    "shuffle_seats": {"group": "table", "house": true,
      "label": {"en": "Shuffle seats", "ko": "자리 섞기", "uk": "Перемішати місця"},
      "about": {"en": "The order of play is shuffled each round.", "ko": "라운드마다 차례 순서를 섞습니다.", "uk": "Порядок ходів перемішується кожного туру."}},
    "reveal_below": {"group": "table", "house": true,
      "label": {"en": "Show hands under (cards)", "ko": "공개할 패 (장 미만)", "uk": "Відкривати руки до (карт)"},
      "about": {"en": "A hand of fewer cards than this is shown to everyone (0: off).", "ko": "이보다 적은 장수의 패는 모두에게 보입니다 (0: 끔).", "uk": "Якщо карт на руках менше за це число, їх бачать усі (0 — вимкнено)."}},
    "blitz_seconds": {"group": "timers", "house": true,
      "label": {"en": "Round clock (s)", "ko": "라운드 시간 (초)", "uk": "Час на тур (с)"},
      "about": {"en": "Each round has a clock; when it runs out the fewest cards win (0: off).", "ko": "라운드마다 시간 제한: 시간이 다 되면 카드가 가장 적은 사람이 이깁니다 (0: 끔).", "uk": "Кожен тур має годинник; коли час вийде, виграє той, у кого найменше карт (0 — вимкнено)."}}
  },
  "choices": {
    "modern": {"en": "modern (112)", "ko": "모던 (112장)", "uk": "сучасна (112)"},
    "classic": {"en": "classic (108)", "ko": "클래식 (108장)", "uk": "класична (108)"},
    "classic_blank": {"en": "classic + blanks", "ko": "클래식 + 빈 카드", "uk": "класична + пустушки"},
    "official": {"en": "official", "ko": "공식", "uk": "офіційно"},
    "number_only": {"en": "number only", "ko": "숫자만", "uk": "лише цифра"},
    "return": {"en": "return the card", "ko": "카드 되돌리기", "uk": "повернути карту"},
    "off": {"en": "off", "ko": "끔", "uk": "вимкнено"},
    "winner_takes": {"en": "winner takes (500)", "ko": "이긴 사람이 가져감 (500)", "uk": "переможець забирає (500)"},
    "lowest_wins": {"en": "lowest wins (200)", "ko": "낮은 점수 승리 (200)", "uk": "найменше виграє (200)"},
    "lazy": {"en": "lazy (round wins)", "ko": "라운드 승리만", "uk": "«ледачий» (тури)"},
    "progressive": {"en": "progressive", "ko": "누적", "uk": "накопичення"},
    "mixed": {"en": "mixed +2/+4", "ko": "+2/+4 섞기", "uk": "змішане +2/+4"},
    "deflect": {"en": "deflect", "ko": "넘기기", "uk": "передати"},
    "twos": {"en": "after a 2", "ko": "2 이후", "uk": "після «2»"},
    "strict": {"en": "strict", "ko": "엄격", "uk": "суворо"},
    "choose": {"en": "a chosen player", "ko": "고른 사람", "uk": "обраним гравцем"},
    "next": {"en": "the next player", "ko": "다음 사람", "uk": "наступним"},
    "wilds": {"en": "after a Wild", "ko": "와일드 이후", "uk": "після чорної"}
  }
};

const pick = (words) => words[lang()] || words.en;

/** The groups of the rules form, in order, each with its keys in order. */
export function groupedKeys() {
  return WORDS.groups.map((group) => [group, Object.keys(WORDS.rules).filter((key) => WORDS.rules[key].group === group)]);
}

export function isHouseRule(key) {
  return Boolean(WORDS.rules[key]?.house);
}

export function ruleLabel(key) {
  const words = WORDS.rules[key];
  return words ? pick(words.label) : key;
}

export function ruleAbout(key) {
  const words = WORDS.rules[key];
  return words ? pick(words.about) : "";
}

export function choiceLabel(value) {
  const words = WORDS.choices[value];
  return words ? pick(words) : value;
}
