"""The words of every problem code, in Vietnamese and English.

Each message says what is wrong and what to fix, in the scorekeeper's terms. Templates use
``str.format`` fields filled from :attr:`Problem.params`; the field path itself is shown beside
the message by whoever displays it (a form marks the field, the CLI prints ``path: message``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LANGS: tuple[str, ...] = ("vi", "en")

#: code → (Vietnamese, English)
CATALOG: dict[str, tuple[str, str]] = {
    # --- shape of the data
    "not_an_object": (
        "Cần một đối tượng JSON {{…}} ở đây, không phải {value}.",
        "Expected a JSON object {{…}} here, not {value}.",
    ),
    "not_a_list": (
        "Cần một danh sách […] ở đây, không phải {value}.",
        "Expected a list […] here, not {value}.",
    ),
    "not_a_bool": (
        "Cần true hoặc false, không phải {value}.",
        "Expected true or false, not {value}.",
    ),
    "not_an_int": (
        "Cần một số nguyên, không phải {value}.",
        "Expected a whole number, not {value}.",
    ),
    "not_a_number": (
        '{value} không phải là một số; hãy ghi số nguyên, phân số như "1/2" hoặc số thập phân '
        'như "1.5".',
        '{value} is not a number; write a whole number, a fraction like "1/2" or a decimal '
        'like "1.5".',
    ),
    "unknown_field": (
        "Sổ không có mục này; hãy xoá nó hoặc sửa lại tên cho đúng.",
        "This field is not part of the format; remove it or fix its name.",
    ),
    "missing_field": ("Còn thiếu mục này; hãy điền vào.", "This field is missing; fill it in."),
    "unknown_version": (
        "Phiên bản {value} không được hỗ trợ; chỉ có phiên bản 1.",
        "Version {value} is not supported; only version 1 is.",
    ),
    "blank_text": ("Hãy điền chữ vào ô này.", "This text must not be blank."),
    # --- players
    "bad_player_name": (
        "Tên người chơi phải là chữ và không để trống (đang là {value}).",
        "A player name must be non-empty text (got {value}).",
    ),
    "duplicate_player": (
        "Tên {player} bị trùng; mỗi người chơi cần một tên riêng.",
        "The name {player} appears twice; each player needs their own name.",
    ),
    "player_count": (
        "Một ván cần từ 2 đến 4 người chơi, đang có {count}.",
        "A game needs 2 to 4 players; this one has {count}.",
    ),
    "not_a_player": (
        "Cần tên một người chơi ở đây, không phải {value}.",
        "Expected a player's name here, not {value}.",
    ),
    "not_a_member": (
        "{player} không phải là thành viên của bàn này; hãy thêm vào danh sách người chơi trước.",
        "{player} is not a member of this table; add them to the table's players first.",
    ),
    "unknown_player": (
        "{player} không có trong danh sách người chơi của ván này.",
        "{player} is not one of this game's players.",
    ),
    "duplicate_in_list": (
        "{player} được ghi hai lần; mỗi người chỉ ghi một lần.",
        "{player} is listed twice; list each player once.",
    ),
    # --- finish and hands
    "no_winner": (
        "Chưa có người về nhất: ghi ít nhất người đi hết bài trước tiên vào thứ tự về.",
        "No winner: put at least the first player to go out in the finish order.",
    ),
    "finish_not_permutation": (
        "Thứ tự về phải có đủ mọi người chơi, mỗi người một lần; còn thiếu: {missing}.",
        "The finish order must list every player once; missing: {missing}.",
    ),
    "winner_holds_cards": (
        "{player} về nhất nên không thể còn bài (đang ghi {cards} lá); hãy xoá bài của {player} "
        "hoặc sửa thứ tự về.",
        "{player} won, so they cannot hold cards ({cards} recorded); clear {player}'s cards or fix "
        "the finish order.",
    ),
    "loser_without_cards": (
        "{player} thua nên phải còn ít nhất 1 lá; hãy ghi số lá còn lại của {player}.",
        "{player} lost, so they must still hold at least 1 card; enter how many cards {player} "
        "held.",
    ),
    "finished_player_holds_cards": (
        "{player} đã về nên không còn bài; chỉ người bị cóng và người về cuối ({last}) mới còn "
        "bài.",
        "{player} finished, so they hold no cards; only cóng players and the last player "
        "({last}) still hold cards.",
    ),
    "count_out_of_range": (
        "Số này phải từ 0 đến {high}, đang là {value}.",
        "This number must be between 0 and {high}; it is {value}.",
    ),
    "special_exceeds_cards": (
        "{player} còn {cards} lá nhưng heo và hàng ghi đã chiếm {special} lá; hãy sửa số lá hoặc "
        "heo/hàng.",
        "{player} holds {cards} cards but the recorded heo and hàng take {special}; fix the card "
        "count or the heo/hàng.",
    ),
    "unknown_card": (
        "{value} không phải là một lá bài; ghi số rồi chất, ví dụ 2♥.",
        "{value} is not a card; write the rank then the suit, e.g. 2♥.",
    ),
    "not_a_heo": (
        "{card} không phải là heo; ở đây chỉ ghi các lá 2 (2♠ 2♣ 2♦ 2♥).",
        "{card} is not a heo; only 2s (2♠ 2♣ 2♦ 2♥) go here.",
    ),
    "duplicate_heo": (
        "Chỉ có một lá {card} trong bộ bài, nhưng nó đã được ghi {other}; hãy xoá một chỗ.",
        "There is only one {card} in the deck and it is already recorded {other}; remove one.",
    ),
    "dealt_hand_not_13": (
        "Khi tới trắng, mỗi người có đủ 13 lá được chia (đang ghi {cards}).",
        "In a tới trắng every player holds the 13 cards dealt ({cards} recorded).",
    ),
    # --- cóng
    "cong_is_winner": (
        "{player} về nhất nên không thể bị cóng; hãy bỏ {player} khỏi danh sách cóng.",
        "{player} won, so they cannot be cóng; take {player} off the cóng list.",
    ),
    "cong_needs_13": (
        "{player} bị cóng nên phải còn đủ 13 lá (đang ghi {cards}); sửa số lá hoặc bỏ cóng.",
        "{player} is cóng, so they hold all 13 cards ({cards} recorded); fix the count or "
        "remove the cóng.",
    ),
    "thirteen_not_cong": (
        "{player} còn nguyên 13 lá tức là bị cóng; hãy đánh dấu {player} cóng hoặc sửa số lá.",
        "{player} holds all 13 cards, which means cóng; mark {player} as cóng or fix the count.",
    ),
    "cong_ranked_above": (
        "{player} bị cóng nên phải xếp sau mọi người không cóng, kể cả {other}.",
        "{player} is cóng, so they rank below every player who is not, including {other}.",
    ),
    # --- chặt
    "chain_too_short": (
        "Một lần chặt cần ít nhất 2 bước: bài bị chặt rồi đến bài chặt (đang có {count}).",
        "A chop needs at least 2 steps: the chopped play, then the chop ({count} given).",
    ),
    "unknown_play": (
        "{value} không phải kiểu bài chặt; chọn heo, đôi heo, 3 đôi thông, tứ quý hoặc "
        "4 đôi thông.",
        "{value} is not a play; choose heo, doi_heo, 3dt, tq or 4dt.",
    ),
    "heo_step_needs_cards": (
        "Hãy ghi lá heo nào cho bước {play} này.",
        "Name the 2s of this {play} step.",
    ),
    "wrong_heo_count": (
        "{play} cần đúng {expected} lá 2, đang ghi {count}.",
        "A {play} needs exactly {expected} 2s; {count} given.",
    ),
    "cards_only_for_heo": (
        "Chỉ ghi lá bài cho heo và đôi heo; với {play} hãy bỏ trường này (dùng top nếu cần).",
        "Only heo and đôi heo name their cards; for a {play} remove this (use top if needed).",
    ),
    "top_only_for_hang": (
        "Lá cao nhất (top) chỉ dùng cho hàng (3 đôi thông, tứ quý, 4 đôi thông).",
        "A top (highest card) is only for hàng (3dt, tq, 4dt).",
    ),
    "heo_in_run": (
        "Đôi thông không chứa heo, nên lá cao nhất không thể là {card}.",
        "A run of pairs cannot contain a 2, so its highest card cannot be {card}.",
    ),
    "self_chop": (
        "{player} không thể tự chặt chính mình; kiểm tra lại người chơi ở bước này.",
        "{player} cannot chop their own play; check this step's player.",
    ),
    "nothing_chops_three_heo": (
        "Sám cô heo thì không hàng nào chặt được; lần chặt này không hợp lệ.",
        "No bomb chops three 2s; this chop is not allowed.",
    ),
    "illegal_chop": (
        "{chopper} không chặt được {chopped}; xem lại bảng chặt.",
        "A {chopper} cannot chop {chopped}; check the chop table.",
    ),
    "chop_not_bigger": (
        "{play} chặt {play} phải lớn hơn: lá cao nhất {top} không lớn hơn {other}.",
        "A {play} chopping a {play} must be bigger: top {top} is not above {other}.",
    ),
    "cong_in_chain": (
        "{player} bị cóng (chưa đánh lá nào) nên không thể có mặt trong lần chặt.",
        "{player} is cóng (played nothing), so they cannot be part of a chop.",
    ),
    "victim_out_not_winner": (
        "Người bị chặt cuối là {player}, nhưng người về nhất là {winner}: chỉ khi người bị chặt "
        'tới luôn bằng bài đó mới đánh dấu "tới luôn".',
        'The last chopped player is {player} but {winner} won: mark "went out" only when the '
        "chopped player went out with that play.",
    ),
    "victim_out_still_holding": (
        "{player} còn bài khi hết ván nên không thể đã tới luôn bằng bài bị chặt.",
        "{player} still held cards at the end, so they cannot have gone out with the chopped play.",
    ),
    # --- đền, kết 3 bích, tới trắng
    "den_without_cong": (
        "Chỉ đền khi có người bị cóng; ván này không ai cóng, hãy bỏ đền của {player}.",
        "Đền only applies when someone is cóng; nobody is, so remove {player}'s đền.",
    ),
    "den_is_winner": (
        "{player} về nhất nên không thể đền.",
        "{player} won, so they cannot đền.",
    ),
    "den_not_played": (
        'Luật "{rules}" không tính đền bài; hãy bỏ đền của {player} hoặc sửa luật.',
        'The rule set "{rules}" does not play đền; remove {player}\'s đền or change the rules.',
    ),
    "den_needs_all_cong": (
        'Luật "{rules}" chỉ tính đền khi mọi người thua đều cóng, nhưng {others} không cóng; '
        "hãy bỏ đền của {player}.",
        'The rule set "{rules}" only plays đền when every loser is cóng, but {others} is not; '
        "remove {player}'s đền.",
    ),
    "ket_and_chan": (
        "Một ván không thể vừa kết 3 bích vừa chặn kết 3 bích (chỉ có một lá 3♠).",
        "A game cannot have both kết 3 bích and chặn kết 3 bích (there is one 3♠).",
    ),
    "chan_player_is_cong": (
        "{player} bị cóng nên không thể sắp kết 3 bích.",
        "{player} is cóng, so they cannot have been about to finish with 3♠.",
    ),
    "cong_in_last_round": (
        "{player} bị cóng (chưa đánh lá nào) nên không thể có mặt trong vòng cuối.",
        "{player} is cóng (played nothing), so they cannot have taken part in the last round.",
    ),
    "chan_round_empty": (
        "Hãy ghi những người khác có mặt trong vòng cuối khi {player} bị chặn.",
        "List the other players who took part in the last round when {player} was stopped.",
    ),
    "unknown_hand": (
        "{hand} không phải là một bài tới trắng đã biết.",
        "{hand} is not a known tới trắng hand.",
    ),
    "hand_not_accepted": (
        'Luật "{rules}" không tính {hand} là tới trắng.',
        'The rule set "{rules}" does not accept {hand} as tới trắng.',
    ),
    "hand_needs_opening": (
        "{hand} chỉ được tính tới trắng trong ván khởi đầu; đánh dấu ván khởi đầu hoặc chọn bài "
        "khác.",
        "{hand} only wins trắng in an opening game (ván khởi đầu); mark the game as opening or "
        "pick another hand.",
    ),
    "hand_not_in_opening": (
        "Luật này chỉ tính {hand} là tới trắng ở các ván khác, không ở ván khởi đầu; bỏ đánh dấu "
        "ván khởi đầu hoặc chọn bài khác.",
        "These rules count {hand} as tới trắng only outside an opening game (ván khởi đầu); "
        "unmark the opening game or pick another hand.",
    ),
    # --- going out on a 2
    "two_out_not_played": (
        'Luật "{rules}" cho phép về bằng heo như mọi lá, nên không ghi {player} về bằng heo; '
        "hãy bỏ phần này hoặc sửa luật.",
        'The rule set "{rules}" allows going out on a 2 like any card, so do not record '
        "{player} as going out on a 2; remove it or change the rules.",
    ),
    "two_out_is_winner": (
        "{player} về bằng heo nên bị xếp bét, không thể là người về nhất.",
        "{player} went out on a 2, so they rank last and cannot be the winner.",
    ),
    "two_out_is_cong": (
        "{player} bị cóng (chưa đánh lá nào) nên không thể về bằng heo.",
        "{player} is cóng (played nothing), so they cannot have gone out on a 2.",
    ),
    "two_out_holds_cards": (
        "{player} về bằng heo nên không còn lá nào, nhưng đang ghi {cards} lá; hãy bỏ số lá đó.",
        "{player} went out on a 2, so they hold nothing, but {cards} cards are recorded; remove "
        "them.",
    ),
    "two_out_cards_missing": (
        'Luật "{rules}" chưa nói người về bằng heo bị tính bao nhiêu lá (two_out_cards); hãy '
        "ghi số lá đó trong luật trước khi ghi {player} về bằng heo.",
        'The rule set "{rules}" does not say how many cards going out on a 2 counts as '
        "(two_out_cards); set it in the rules before recording {player} as going out on a 2.",
    ),
    "two_out_not_last": (
        "{player} về bằng heo nên về bét: hãy xếp {player} sau cùng trong những người không cóng "
        "(đang là {last}).",
        "{player} went out on a 2, so they rank last: put {player} last among the players who "
        "are not cóng (now {last} is).",
    ),
    "not_with_toi_trang": (
        "Ván tới trắng không có phần này (không ai đánh bài); hãy bỏ nó.",
        "A tới trắng game has no such part (nobody played); remove it.",
    ),
    "chop_not_in_rules": (
        'Luật "{rules}" không cho {chopper} chặt {chopped}; bỏ bước chặt này hoặc sửa bảng chặt '
        "của luật.",
        'The rule set "{rules}" does not let a {chopper} chop {chopped}; remove this chop or '
        "change the rule set's chop table.",
    ),
    "ket_3_bich_set_aside": (
        'Kết 3 bích không tính: luật "{rules}" không chơi kết 3 bích, nên ván tính như mọi ván.',
        'The kết 3 bích is not counted: the rule set "{rules}" does not play it, so the game is '
        "priced as any other.",
    ),
    "chan_ket_3_bich_set_aside": (
        'Chặn kết 3 bích không tính: luật "{rules}" không chơi kết 3 bích, nên ván tính như mọi '
        "ván.",
        'The chặn kết 3 bích is not counted: the rule set "{rules}" does not play kết 3 bích, '
        "so the game is priced as any other.",
    ),
    "hands_set_aside": (
        'Bài trên tay không tính: luật "{rules}" không tính thối khi tới trắng bằng {hand}.',
        'The hands are not counted: the rule set "{rules}" does not count thối on a tới trắng '
        "with {hand}.",
    ),
    # --- rule sets
    "unknown_preset": (
        'Không có bộ luật mẫu "{value}"; chọn dem-la, nhat-nhi-ba-bet, cuoc, diem hoặc dem-la-26.',
        'There is no preset "{value}"; choose dem-la, nhat-nhi-ba-bet, cuoc, diem or dem-la-26.',
    ),
    "unknown_mode": (
        "Kiểu tính {value} không có; chọn first_out (đếm lá) hoặc placement (nhất nhì ba bét).",
        "Unknown mode {value}; choose first_out (đếm lá) or placement (nhất nhì ba bét).",
    ),
    "unknown_thoi_to": (
        "Người nhận thối {value} không có; chọn winner (người nhất) hoặc above (người xếp trên).",
        "Unknown thối recipient {value}; choose winner or above.",
    ),
    "unknown_den_when": (
        "Cách tính đền {value} không có; chọn any_cong, all_cong, always hoặc never.",
        "Unknown đền choice {value}; choose any_cong, all_cong, always or never.",
    ),
    "unknown_ket_3_bich_mode": (
        "Cách tính kết 3 bích {value} không có; chọn instead (thay tiền lá và thối) hoặc plus "
        "(cộng thêm).",
        "Unknown kết 3 bích choice {value}; choose instead (replaces card and thối money) or "
        "plus (on top of it).",
    ),
    "unknown_two_out": (
        "Cách tính về bằng heo {value} không có; chọn allowed (được về) hoặc bet (về bét).",
        "Unknown choice for going out on a 2 {value}; choose allowed or bet (ranks last).",
    ),
    "unknown_cong_thoi_to": (
        "Người nhận thối của người cóng {value} không có; chọn winner (người nhất) hoặc above "
        "(người xếp trên).",
        "Unknown recipient of a cóng player's thối {value}; choose winner or above.",
    ),
    "cong_thoi_to_above_first_out": (
        "Kiểu đếm lá chỉ có một người thắng, nên thối của người cóng phải trả cho người nhất "
        "(winner).",
        "Đếm lá (first_out) has a single winner, so a cóng player's thối must go to the winner.",
    ),
    "not_a_bool_or_hands": (
        "Cần true, false hoặc danh sách mã bài tới trắng, không phải {value}.",
        "Expected true, false or a list of tới trắng hand ids, not {value}.",
    ),
    "thoi_hand_not_accepted": (
        "{hand} chưa có trong danh sách bài tới trắng được tính; thêm vào đó trước.",
        "{hand} is not in the accepted tới trắng hands; add it there first.",
    ),
    "duplicate_play": ("{play} được ghi hai lần.", "{play} is listed twice."),
    "thoi_to_above_first_out": (
        "Kiểu đếm lá chỉ có một người thắng, nên thối phải trả cho người nhất (winner).",
        "Đếm lá (first_out) has a single winner, so thối must go to the winner.",
    ),
    "negative_value": (
        "Giá trị này không được âm (đang là {value}).",
        "This value cannot be negative (it is {value}).",
    ),
    "not_positive": (
        "Giá trị này phải lớn hơn 0 (đang là {value}).",
        "This value must be above 0 (it is {value}).",
    ),
    "cong_multiplier_below_one": (
        "Cóng phải trả ít nhất gấp 1 lần tiền lá (đang là {value}): cóng không thể rẻ hơn "
        "thua thường.",
        "The cóng multiplier must be at least 1 (it is {value}): cóng cannot cost less than a "
        "plain loss.",
    ),
    "ket_3_bich_needs_first_out": (
        "Kết 3 bích chỉ dùng với kiểu đếm lá (first_out).",
        "Kết 3 bích only works with first_out (đếm lá).",
    ),
    "placement_length": (
        "Ván {players} người cần đúng {players} giá trị hạng, đang có {count}.",
        "A {players}-player game needs exactly {players} rank values; {count} given.",
    ),
    "placement_not_descending": (
        "Giá trị hạng phải giảm dần từ nhất đến bét.",
        "Rank values must not increase from nhất down to bét.",
    ),
    "placement_not_zero_sum": (
        "Điểm các hạng cộng lại phải bằng 0 (đang là {total}), để thắng thua mỗi ván bù trừ hết.",
        "The rank values must add up to 0 (they add up to {total}) so every game balances.",
    ),
    "cong_score_above_last": (
        "Điểm cóng ({value}) không được cao hơn điểm bét ({last}).",
        "The cóng score ({value}) cannot be above the last rank's value ({last}).",
    ),
    "duplicate_hand": ("{hand} được ghi hai lần.", "{hand} is listed twice."),
    "opening_hand_not_accepted": (
        "{hand} chưa có trong danh sách bài tới trắng được tính; thêm vào đó trước.",
        "{hand} is not in the accepted tới trắng hands; add it there first.",
    ),
    "valued_hand_not_accepted": (
        "{hand} có giá nhưng chưa có trong danh sách bài tới trắng được tính.",
        "{hand} has a value but is not in the accepted tới trắng hands.",
    ),
    "hand_without_value": (
        "{hand} được tính tới trắng nhưng chưa có giá; ghi giá cho bài đó hoặc một giá chung.",
        "{hand} is accepted but has no value; give it one or set a flat value.",
    ),
    # --- stake
    "stake_not_int": (
        "Mức tiền phải là số nguyên đồng, không phải {value}.",
        "The stake must be a whole number of đồng, not {value}.",
    ),
    "stake_not_positive": (
        "Mức tiền phải lớn hơn 0 (đang là {value}).",
        "The stake must be above 0 (it is {value}).",
    ),
    "stake_makes_fraction": (
        "Với {stake} ₫ mỗi đơn vị, {field} ({value}) thành {amount} ₫, không tròn đồng; hãy chọn "
        "mức tiền là bội số của {multiple}.",
        "At {stake} ₫ per unit, {field} ({value}) comes to {amount} ₫, not a whole amount; pick a "
        "stake that is a multiple of {multiple}.",
    ),
    # --- numbers as typed, and the limit on amounts (scoring/text/numbers.py, limits.py)
    "foreign_digit": (
        "{value} có ký tự “{char}” ({name}) không phải chữ số 0–9; hãy gõ lại bằng chữ số thường.",
        "{value} holds “{char}” ({name}), which is not a digit 0–9; type it again with plain "
        "digits.",
    ),
    "number_too_small": (
        "Số này phải từ {low} trở lên (đang là {value}).",
        "This number must be at least {low} (it is {value}).",
    ),
    "number_too_large": (
        "Số này tối đa là {high} (đang là {value}).",
        "This number may be at most {high} (it is {value}).",
    ),
    "number_too_long": (
        "{value} quá dài: một số có tối đa {digits} chữ số.",
        "{value} is too long: a number has at most {digits} digits.",
    ),
    "not_money": (
        "{value} không phải số tiền; hãy ghi số đồng, ví dụ 200000, 200.000 hoặc 200k.",
        "{value} is not an amount; write whole đồng, e.g. 200000, 200,000 or 200k.",
    ),
    "rules_too_large": (
        "Giá trị quá lớn: một ván có thể tới {units} đơn vị, vượt giới hạn {max} ₫ của một khoản "
        "tiền (13 chữ số, mức tối đa của mã VietQR) ngay cả ở mức tiền nhỏ nhất; hãy giảm giá "
        "trị này.",
        "Too large: one game could come to {units} units, above the {max} ₫ limit of any amount "
        "(13 digits, the most a VietQR code holds) even at the smallest stake; lower this value.",
    ),
    "stake_too_large": (
        "Với luật này một ván có thể tới {units} đơn vị; ở {stake} ₫ mỗi đơn vị sẽ vượt giới hạn "
        "{max} ₫ của một khoản tiền (13 chữ số, mức tối đa của mã VietQR). Mức tiền tối đa là "
        "{max_stake} ₫.",
        "Under these rules one game can come to {units} units; at {stake} ₫ per unit that goes "
        "above the {max} ₫ limit of any amount (13 digits, the most a VietQR code holds). The "
        "largest stake is {max_stake} ₫.",
    ),
    "rules_too_large_for_any_stake": (
        "Luật này quá lớn: một ván có thể tới {units} đơn vị, vượt giới hạn {max} ₫ của một "
        "khoản tiền (13 chữ số, mức tối đa của mã VietQR) ngay cả ở 1 ₫ mỗi đơn vị; hãy giảm "
        "các giá trị của luật.",
        "These rules are too large: one game could come to {units} units, above the {max} ₫ "
        "limit of any amount (13 digits, the most a VietQR code holds) even at 1 ₫ per unit; "
        "lower the rule values.",
    ),
    "stake_above_max": (
        "Mức tiền tối đa là {max} ₫ (đang là {stake} ₫).",
        "The stake may be at most {max} ₫ per unit (it is {stake} ₫).",
    ),
    "game_too_large": (
        "Ván này chuyển {amount} ₫, vượt giới hạn {max} ₫ của một khoản tiền; hãy kiểm tra lại "
        "ván, ví dụ một chuỗi chặt dài hơn cả bộ bài.",
        "This game moves {amount} ₫, above the {max} ₫ limit of any amount; check the game again, "
        "for instance a chặt chain longer than the deck.",
    ),
    # --- text people see (scoring/text/typed.py)
    "hidden_character": (
        "{value} có ký tự ẩn hoặc ký tự điều khiển {char} ({name}), có thể làm chữ hiện sai; "
        "hãy xoá nó.",
        "{value} holds the hidden or control character {char} ({name}), which can make text "
        "display wrongly; remove it.",
    ),
    "too_many_marks": (
        "{value} có quá nhiều dấu chồng lên một chữ (tối đa {max}); hãy gõ lại.",
        "{value} piles too many marks on one letter (at most {max}); type it again.",
    ),
    "confusable_name": (
        "Tên {name} trông giống hệt {other} (chỉ khác dấu, chữ Kirin/Hy Lạp, chữ toàn độ rộng "
        "hay chữ hoa/thường); hãy dùng đúng một tên, hoặc đặt tên khác hẳn.",
        "The name {name} looks just like {other} (only marks, Cyrillic/Greek look-alikes, "
        "full-width letters or case differ); use one spelling, or a clearly different name.",
    ),
}


@dataclass(frozen=True, slots=True)
class Words:
    """A parameter said in each language: a place in the record named as a player would (a
    hand, a chop), never by its field path."""

    vi: str
    en: str

    def __str__(self) -> str:
        return self.vi


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


# A whole number grouped by thousands with dots, as ``readnumbers.grouped`` writes it.
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d.,])")


def render(code: str, params: Mapping[str, Any], lang: str = "vi") -> str:
    """The message of a problem code in ``lang`` ("vi" or "en"; anything else reads as "vi")."""
    templates = CATALOG.get(code)
    if templates is None:
        return code
    english = lang == "en"
    said = _Params()
    for key, value in params.items():
        if isinstance(value, Words):
            value = value.en if english else value.vi
        if english and isinstance(value, str):
            # Amounts are grouped the Vietnamese way (9.999.999); English writes 9,999,999.
            value = _GROUPED.sub(lambda m: m.group(0).replace(".", ","), value)
        said[key] = value
    return templates[1 if english else 0].format_map(said)
