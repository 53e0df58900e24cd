# Holds server/'s folders to one direction (see server/CMakeLists.txt): every quoted #include of
# a server header is rooted at server/ ("lobby/hub.hpp") and names a folder the including folder
# may use, and each folder's CMakeLists.txt links only the libraries below it. The rooms
# (moderation/, replays/) never include the lobby, and the lobby includes a room only through its
# door (the handlers it routes to, the host interface its Hub implements). A folder may hold
# folders of its own (storage/sqlite/, storage/postgres/): each is a folder here with its own
# rules, and "storage/" names storage/'s own files only, not its backends'. Run by ctest as
# "server layering: ..."; prints every offending line and fails.
#   cmake -DSERVER_DIR=<repo>/server -P layering_check.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT SERVER_DIR)
  message(FATAL_ERROR "pass -DSERVER_DIR=<repo>/server")
endif()

set(folders metrics fairness storage storage/sqlite storage/postgres accounts config tournaments net
            cluster match hall moderation replays pairing decks friends tournament_room lobby app)
# What each folder may include besides itself: a folder ("storage/") or one header ("net/peer.hpp").
set(allowed_metrics "")
set(allowed_fairness "")
set(allowed_storage fairness/ metrics/)
set(allowed_storage/sqlite storage/ fairness/ metrics/)
set(allowed_storage/postgres storage/ fairness/ metrics/)
set(allowed_accounts storage/ fairness/ metrics/)
set(allowed_config "")
set(allowed_tournaments "")
set(allowed_net config/ metrics/)
set(allowed_cluster config/ metrics/)
set(net_interfaces net/peer.hpp net/outbox.hpp net/messages.hpp)
set(allowed_match ${net_interfaces} config/ storage/ fairness/ metrics/)
# hall/: what every room shares (a connection's state, a call, its answer); no room.
set(allowed_hall accounts/ config/ match/player.hpp net/peer.hpp net/rate_limiter.hpp storage/)
# A room reaches the hall through its host interface and never includes the lobby.
set(allowed_moderation hall/ cluster/ accounts/ match/ ${net_interfaces} net/rate_limiter.hpp
    config/ storage/ fairness/ metrics/)
set(allowed_replays hall/ storage/ fairness/)
# friends/: in a cluster it shares presence and challenges through Redis (cluster/).
set(allowed_friends hall/ accounts/ match/player.hpp moderation/roster.hpp
    moderation/moderation_service.hpp ${net_interfaces} config/ storage/ cluster/)
# pairing/: the pure pools (their library links no server library) and the room that wires them
# to a node through PairingHost, and in a cluster to Redis (cluster/: the pools' scripts).
set(allowed_pairing hall/ match/ accounts/ config/ cluster/ ${net_interfaces})
set(allowed_decks hall/ config/ storage/)
# tournament_room/: the director, on the pure formats of tournaments/.
set(allowed_tournament_room tournaments/ hall/ match/ ${net_interfaces} config/ storage/ cluster/)
# The lobby includes a room only through its door: the handlers it routes to, the host it
# implements.
set(moderation_door moderation/moderation_handlers.hpp moderation/moderation_host.hpp
    moderation/moderation_cluster.hpp moderation/moderation_service.hpp)
set(replays_door replays/replay_handlers.hpp replays/replay_host.hpp)
set(friends_door friends/friends_handlers.hpp friends/friends_host.hpp friends/friends_room.hpp)
set(pairing_door pairing/pairing_handlers.hpp pairing/pairing_host.hpp pairing/pairing_room.hpp)
set(decks_door decks/deck_handlers.hpp decks/deck_host.hpp)
set(tournament_door tournament_room/tournament_handlers.hpp tournament_room/tournament_host.hpp
    tournament_room/tournament_room.hpp)
set(allowed_lobby ${moderation_door} ${replays_door} ${pairing_door} ${friends_door} ${decks_door}
    ${tournament_door} hall/
    cluster/ accounts/ match/ ${net_interfaces} net/rate_limiter.hpp net/gateway.hpp config/ storage/
    fairness/ metrics/)
set(allowed_app friends/ moderation/ replays/ pairing/ decks/ tournament_room/ hall/ cluster/ accounts/ lobby/ match/ net/ config/
    storage/postgres/ storage/sqlite/ storage/ fairness/ metrics/)
# The duelhall_* library a folder builds, where its name is not the folder's; storage/sqlite/ is
# built by storage/'s CMakeLists.txt, into duelhall_storage.
set(library_storage/postgres storage_pg)
# The duelhall_* libraries each folder's CMakeLists.txt may link besides its own.
set(links_metrics "")
set(links_fairness engine)
set(links_storage fairness metrics engine)
set(links_storage/postgres storage fairness metrics engine)
set(links_accounts glicko2 storage fairness metrics engine proto)
set(links_config "")
set(links_tournaments "")
# net/ builds two libraries: duelhall_net (protocol replies) and duelhall_edge (the sessions).
set(links_net edge config metrics engine proto)
set(links_cluster config metrics)
set(links_match net config metrics storage fairness engine proto wire_diff)
set(links_hall accounts match net config storage proto)
set(links_moderation hall cluster accounts match net config metrics storage fairness proto)
set(links_replays hall storage fairness engine proto)
set(links_friends moderation hall accounts match net config storage engine cluster proto)
set(links_pairing pairing_room pairing hall accounts match net config cluster proto)
set(links_decks hall config storage engine proto)
set(links_tournament_room tournaments hall match net config storage cluster proto)
set(links_lobby tournament_room decks friends pairing_room moderation replays hall cluster accounts match net config metrics storage
    fairness engine proto)
set(links_app friends moderation replays decks cluster accounts lobby match edge net config metrics
    storage_pg storage fairness engine)

# The folder of `path` (a file or an include under server/): the longest folder it lies in, or ""
# for none.
function(owning_folder path result)
  set(owner "")
  foreach(candidate ${folders})
    string(LENGTH "${candidate}" candidate_length)
    string(LENGTH "${owner}" owner_length)
    if(path MATCHES "^${candidate}/" AND candidate_length GREATER owner_length)
      set(owner "${candidate}")
    endif()
  endforeach()
  set(${result} "${owner}" PARENT_SCOPE)
endfunction()

# Every header under server/, by bare name, to catch includes that are not rooted at server/.
file(GLOB_RECURSE all_headers RELATIVE ${SERVER_DIR} ${SERVER_DIR}/*.hpp)
set(bare_names "")
foreach(header ${all_headers})
  get_filename_component(name ${header} NAME)
  list(APPEND bare_names ${name})
endforeach()

set(problems 0)
foreach(folder ${folders})
  file(GLOB_RECURSE sources RELATIVE ${SERVER_DIR} ${SERVER_DIR}/${folder}/*.cpp
       ${SERVER_DIR}/${folder}/*.hpp)
  foreach(source ${sources})
    owning_folder("${source}" source_folder)
    if(NOT source_folder STREQUAL folder)
      continue()
    endif()
    file(STRINGS ${SERVER_DIR}/${source} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" target "${line}")
      owning_folder("${target}" root_folder)
      if(root_folder)
        if(root_folder STREQUAL folder)
          continue()
        endif()
        set(ok FALSE)
        set(allowed_here ${allowed_${folder}})
        # The pure pools and rule of pairing/ include no other server folder (the room does).
        if(source MATCHES "^pairing/pairing_(pool|wave|hall)")
          set(allowed_here "")
        endif()
        foreach(entry ${allowed_here})
          if(entry STREQUAL target OR entry STREQUAL "${root_folder}/")
            set(ok TRUE)
          endif()
        endforeach()
        if(NOT ok)
          message("${source}: includes \"${target}\": ${folder}/ may not include it")
          math(EXPR problems "${problems} + 1")
        endif()
      elseif(NOT target MATCHES "/" AND target IN_LIST bare_names)
        message("${source}: includes \"${target}\": name server headers from server/ "
                "(\"<folder>/${target}\")")
        math(EXPR problems "${problems} + 1")
      endif()
    endforeach()
  endforeach()

  if(NOT EXISTS ${SERVER_DIR}/${folder}/CMakeLists.txt)
    continue()
  endif()
  set(own_library ${folder})
  if(DEFINED library_${folder})
    set(own_library ${library_${folder}})
  endif()
  file(READ ${SERVER_DIR}/${folder}/CMakeLists.txt cmake_text)
  string(REGEX REPLACE "#[^\n]*" "" cmake_text "${cmake_text}")
  string(REGEX MATCHALL "duelhall_[a-z0-9_]+" libraries "${cmake_text}")
  foreach(library ${libraries})
    string(REGEX REPLACE "^duelhall_" "" name ${library})
    if(NOT name STREQUAL own_library AND NOT name STREQUAL "warnings"
       AND NOT name IN_LIST links_${folder})
      message("${folder}/CMakeLists.txt: names ${library}: ${folder}/ may not link it")
      math(EXPR problems "${problems} + 1")
    endif()
  endforeach()
endforeach()

if(problems GREATER 0)
  message(FATAL_ERROR "${problems} include(s) or link(s) run the wrong way between server/'s "
                      "folders")
endif()
message(STATUS "server/: every include and link runs one way")
