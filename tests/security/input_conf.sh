#!/usr/bin/env bash
# Security suite, class "input configuration": level.conf's claim_keys,
# host_keys and dev_keys are the level's input to the host, not trusted: huge
# or holey lists, values that are not key names, unknown names and actions,
# two actions on one key. Each is a clear error at the start that names the
# field, within its budget and without a crash; a replay file's key lines
# with scancodes and its touch lines are checked like the others.
. "$(dirname "$0")/lib.sh"

conf_case() {
  local name=$1 pattern=$2 conf=$3
  local dir="$TMP/conf_$name"
  mkdir -p "$dir"
  printf 'local level = {}\nlevel.conf = %s\nfunction level.load(world) end\nreturn level\n' "$conf" > "$dir/level.lua"
  host_case "input conf: $name is refused ($pattern)" error "$pattern" 10 0 --frames 5 "$dir/level.lua"
}

conf_case huge_list "level.conf.claim_keys: at most 64 keys, got 1000000" \
  '{ claim_keys = (function() local t = {} for i = 1, 1000000 do t[i] = "a" end return t end)() }'
conf_case long_hash "level.conf.claim_keys: array of key names expected, got key k" \
  '{ claim_keys = (function() local t = {} for i = 1, 200000 do t["k" .. i] = "a" end return t end)() }'
conf_case number_value "level.conf.claim_keys\[1\]: key name \(string\) expected, got number" '{ claim_keys = { 1 } }'
conf_case table_value "level.conf.claim_keys\[2\]: key name \(string\) expected, got table" '{ claim_keys = { "a", {} } }'
conf_case string_key "level.conf.claim_keys: array of key names expected, got key x" '{ claim_keys = { x = "a" } }'
conf_case holey "level.conf.claim_keys: array of key names expected, got key 100" '{ claim_keys = { "a", [100] = "b" } }'
conf_case unknown_name "level.conf.claim_keys\[1\]: unknown key name 'notakey'" '{ claim_keys = { "notakey" } }'
conf_case long_name "level.conf.claim_keys\[1\]: key name of at most 31 bytes" '{ claim_keys = { string.rep("a", 100000) } }'
conf_case nul_name "level.conf.claim_keys\[1\]: key name of at most 31 bytes" '{ claim_keys = { "a\0b" } }'
conf_case not_a_table "level.conf.claim_keys: array of key names expected, got string" '{ claim_keys = "escape" }'
conf_case dev_keys_string "level.conf.dev_keys: boolean expected, got string" '{ dev_keys = "no" }'
conf_case host_keys_unknown_action "level.conf.host_keys: unknown key 'jump' \(valid keys: quit, overlay" \
  '{ host_keys = { jump = "space" } }'
conf_case host_keys_number_key "level.conf.host_keys: unknown key '1'" '{ host_keys = { "p" } }'
conf_case host_keys_true "level.conf.host_keys.pause: key name or false expected, got boolean" '{ host_keys = { pause = true } }'
conf_case host_keys_unknown_name "level.conf.host_keys.pause: unknown key name 'pouse'" '{ host_keys = { pause = "pouse" } }'
conf_case host_keys_clash "level.conf.host_keys: 'f1' is the key of both overlay and pause" '{ host_keys = { pause = "f1" } }'
conf_case host_keys_claimed "level.conf.host_keys.pause: 'p' is in claim_keys" \
  '{ claim_keys = { "p" }, host_keys = { pause = "p" } }'
conf_case title_number "level.conf.title: string of at most 255 bytes expected" '{ title = 5 }'

# a claim list with __index and __len metamethods is read raw: neither runs
dir="$TMP/conf_meta"; mkdir -p "$dir"
cat > "$dir/level.lua" <<'EOF'
local level = {}
level.conf = { claim_keys = setmetatable({ "escape" }, { __len = function() while true do end end,
  __index = function() while true do end end }) }
function level.keypressed(key) if key == "escape" then tumble.exit(0, "claimed through a list with metamethods") end end
return level
EOF
printf '%s\n' 'tumble-input 1' 'F 1 2' 'kd escape' 'ku escape' 'F 1 2' > "$TMP/esc.rec"
host_case "input conf: a claim list is read raw (its metamethods never run)" ok "claimed through" 10 0 \
  --frames 10 --replay "$TMP/esc.rec" "$dir/level.lua"

# replay lines for scancodes and touch are checked like the others
dir="$TMP/plain"; mkdir -p "$dir"
printf 'return {}\n' > "$dir/level.lua"
for line in 'ksd 512 a' 'ksd -1 a' 'ksd 4' 'ksr x a' 'td 1 2' 'tm 1 2 3 4' 'tu 99999999999999999999 0 0' \
  'td 1 2000000 0' 'ksd 4 a'$'\x01'; do
  printf '%s\n%s\n%s\n' 'tumble-input 1' "$line" 'F 1' > "$TMP/bad.rec"
  host_case "replay: $(printf '%q' "$line") is refused" error "(replay line 2 not understood|line 2: byte 0x01)" 10 0 \
    --frames 5 --replay "$TMP/bad.rec" "$dir/level.lua"
done
finish
