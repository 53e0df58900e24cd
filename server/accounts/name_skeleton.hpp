// Look-alike names (UTS #39, through ICU's spoof checker). Two names whose keys are equal pass
// for one another: `aIice` and `alice`, Cyrillic `аdmin1` and `admin1`, fullwidth `ａｄｍｉｎ` and
// `admin`, `rn` and `m`. Account names are unique by key (the accounts' name_key column), and a
// guest may not go by a name whose key is an account's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/account_store.hpp"

namespace duelhall::accounts {

// The name as it is compared: NFKC case-folded, its UTS #39 skeleton (uspoof_getSkeletonUTF8),
// case-folded again (the skeleton writes '0' as 'O'), and 'i' written as 'l' (case-folding
// turned the capital I that looks like an l into an i). Text that is not UTF-8 is its own key.
std::string name_skeleton(std::string_view name);

// Why a display name cannot be shown as it is: not UTF-8, a control or format character
// (zero-width spaces and joiners, bidirectional overrides and isolates), another invisible
// (default-ignorable) character, or white space at either end. nullopt: it can.
std::optional<std::string> display_name_problem(std::string_view name);

// Brings every account's stored name_key to name_skeleton(name) (a store from before look-alike
// names kept the name lower-cased). Of two accounts whose names now share a key, the older keeps
// it and the newer keeps its old key (so both can still sign in), named in `look_alikes` for the
// log. Throws StoreError.
struct RekeyReport {
  size_t changed = 0;
  std::vector<std::string> look_alikes;
};
RekeyReport rekey_names(storage::AccountStore& store);

}  // namespace duelhall::accounts
