#include "core/types.hpp"

namespace duelhall::engine {

std::string to_string(const Viewer& viewer) {
  switch (viewer.kind) {
    case Viewer::Kind::kSeat:
      return "seat " + std::to_string(viewer.seat);
    case Viewer::Kind::kSpectator:
      return "spectator";
    case Viewer::Kind::kOmniscient:
      return "omniscient";
  }
  return "?";
}

}  // namespace duelhall::engine
