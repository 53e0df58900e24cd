#include "accounts/name_skeleton.hpp"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include <memory>

namespace duelhall::accounts {
namespace {

struct SpoofCloser {
  void operator()(USpoofChecker* checker) const { uspoof_close(checker); }
};

// One checker for the process: uspoof_getSkeleton is safe to call from several threads on a
// checker nobody changes.
const USpoofChecker* checker() {
  static const std::unique_ptr<USpoofChecker, SpoofCloser> shared = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<USpoofChecker, SpoofCloser> made(uspoof_open(&status));
    return U_FAILURE(status) ? nullptr : std::move(made);
  }();
  return shared.get();
}

std::optional<std::string> case_fold(std::string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2* fold = unorm2_getNFKCCasefoldInstance(&status);
  if (U_FAILURE(status)) return std::nullopt;
  // UTF-8 in and out through UTF-16, which is what unorm2 takes.
  std::u16string wide(text.size() * 2 + 8, u'\0');
  int32_t wide_length = 0;
  u_strFromUTF8(wide.data(), static_cast<int32_t>(wide.size()), &wide_length, text.data(),
                static_cast<int32_t>(text.size()), &status);
  if (U_FAILURE(status)) return std::nullopt;
  std::u16string folded(static_cast<size_t>(wide_length) * 4 + 16, u'\0');
  const int32_t folded_length = unorm2_normalize(fold, wide.data(), wide_length, folded.data(),
                                                 static_cast<int32_t>(folded.size()), &status);
  if (U_FAILURE(status)) return std::nullopt;
  std::string out(static_cast<size_t>(folded_length) * 3 + 4, '\0');
  int32_t out_length = 0;
  u_strToUTF8(out.data(), static_cast<int32_t>(out.size()), &out_length, folded.data(),
              folded_length, &status);
  if (U_FAILURE(status)) return std::nullopt;
  out.resize(static_cast<size_t>(out_length));
  return out;
}

std::optional<std::string> skeleton(const std::string& text) {
  const USpoofChecker* spoof = checker();
  if (!spoof) return std::nullopt;
  UErrorCode status = U_ZERO_ERROR;
  std::string out(text.size() * 4 + 16, '\0');
  const int32_t length =
      uspoof_getSkeletonUTF8(spoof, 0, text.data(), static_cast<int32_t>(text.size()), out.data(),
                             static_cast<int32_t>(out.size()), &status);
  if (status == U_BUFFER_OVERFLOW_ERROR) {
    status = U_ZERO_ERROR;
    out.assign(static_cast<size_t>(length) + 1, '\0');
    uspoof_getSkeletonUTF8(spoof, 0, text.data(), static_cast<int32_t>(text.size()), out.data(),
                           static_cast<int32_t>(out.size()), &status);
  }
  if (U_FAILURE(status)) return std::nullopt;
  out.resize(static_cast<size_t>(length));
  return out;
}

}  // namespace

std::string name_skeleton(std::string_view name) {
  const auto folded = case_fold(name);
  if (!folded) return std::string(name);
  const auto shape = skeleton(*folded);
  if (!shape) return *folded;
  std::string key = case_fold(*shape).value_or(*shape);
  for (char& c : key) {
    if (c == 'i') c = 'l';
  }
  return key;
}

std::optional<std::string> display_name_problem(std::string_view name) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(name.data());
  const auto length = static_cast<int32_t>(name.size());
  bool first = true;
  UChar32 last = 0;
  for (int32_t i = 0; i < length;) {
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
    if (c < 0) return "a name is UTF-8 text";
    const auto category = static_cast<UCharCategory>(u_charType(c));
    if (category == U_CONTROL_CHAR || category == U_FORMAT_CHAR ||
        u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
        u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL)) {
      return "a name has no control, invisible or text-direction characters";
    }
    if (first && u_isUWhiteSpace(c)) return "a name does not start or end with a space";
    first = false;
    last = c;
  }
  if (u_isUWhiteSpace(last)) return "a name does not start or end with a space";
  return std::nullopt;
}

RekeyReport rekey_names(storage::AccountStore& store) {
  RekeyReport report;
  for (const auto& account : store.named_accounts()) {
    const std::string key = name_skeleton(account.name);
    if (key == account.name_key) continue;
    if (store.set_name_key(account.id, key)) {
      ++report.changed;
    } else {
      report.look_alikes.push_back(account.name);
    }
  }
  return report;
}

}  // namespace duelhall::accounts
