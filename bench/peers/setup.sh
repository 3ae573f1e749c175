# bench/peers/setup.sh: what run.sh and world_run.sh share, sourced from the
# repository's root after they set WORK, TCOD_VERSION and ME (the script's
# name, for messages): bench/interpreters.sh (both builds checked, LUA54,
# LUAJIT), and libtcod from python-tcod's wheel in a venv of
# $WORK: `libtcod SYMBOL` sets LIB, the wheel's shared object that defines
# SYMBOL, and LIBTCOD_VERSION; `rounds PROG...` runs the script's
# `run_prog` for each program in ROUNDS rounds; `about_run` prints what the
# figures were measured with.

. bench/interpreters.sh

libtcod() {
  if [ ! -x "$WORK/venv/bin/python" ]; then
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install --quiet "tcod==$TCOD_VERSION" >&2
  fi
  LIB=
  while IFS= read -r so; do
    if nm -D --defined-only "$so" 2>/dev/null | grep " $1\$" >/dev/null; then LIB=$so; break; fi
  done < <(find -L "$WORK/venv" -name '*.so*' -path '*tcod*')
  [ -n "$LIB" ] || { echo "$ME: no shared object in the wheel defines $1" >&2; exit 1; }
  LIBTCOD_VERSION=$(grep -a -m1 -oE 'libtcod [0-9]+\.[0-9]+\.[0-9]+' "$LIB" | head -1 || echo 'libtcod ?')
}

# rounds PROG...: ROUNDS rounds of `run_prog PROG BUDGET` (the script's) for
# every program, the order rotating from round to round; each output in
# $WORK/round-ROUND-PROG.out, between the load averages before and after.
rounds() {
  local progs=("$@") r k p out
  rm -f "$WORK"/round-*.out
  for ((r = 1; r <= ROUNDS; r++)); do
    for ((k = 0; k < ${#progs[@]}; k++)); do
      p=${progs[$(((r - 1 + k) % ${#progs[@]}))]}
      out="$WORK/round-$r-$p.out"
      echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >"$out"
      run_prog "$p" "$BUDGET" >>"$out"
      echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out"
      echo "round $r: $p done" >&2
    done
  done
}

# The run's markdown lines: the date and commit, the machine, libtcod, the
# interpreters, the rounds.
about_run() {
  echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); git: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (src/ has uncommitted changes)')"
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), nproc $(nproc); $(uname -sr)"
  echo "- $LIBTCOD_VERSION (python-tcod $("$WORK/venv/bin/python" -c 'import tcod; print(tcod.__version__)')'s wheel, $(basename "$LIB")), called from C: $(cc --version | head -1), -O2"
  echo "- $(lua5.4 -v 2>&1 | head -1 | sed 's/  Copyright.*//'); $(luajit -v 2>&1 | head -1 | sed 's/ -- Copyright.*//')"
  echo "- $ROUNDS rounds, $BUDGET s of CPU per workload and program in each"
}
