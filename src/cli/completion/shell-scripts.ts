/**
 * The completion scripts `mcpwire completion bash|zsh|fish` prints, for `mcpwire …` and for
 * `npx mcpwire …` (a project install, where no `mcpwire` is on PATH). Each asks the CLI on every
 * TAB: `mcpwire __complete INDEX WORD...` (every word of the line, `WORD[0]` the program, INDEX
 * the one being completed) prints one candidate a line, `value<TAB>description`, or the single
 * line `:files` for "a file name goes here". The scripts only pass words and show the answer.
 */

/** What every script says when `npx mcpwire` has no mcpwire to ask (once per directory). */
const MISSING =
  'mcpwire: not installed here (no node_modules/.bin/mcpwire in %s or above, and none on PATH), ' +
  'so npx mcpwire has nothing to complete; install it: npm install --save-dev mcpwire';

/**
 * bash: `COMP_WORDS` split at `:` and `=` (`COMP_WORDBREAKS`) are joined back by what the line
 * holds, so `--server=x` and `host:name` reach the CLI as typed; the answer is cut back to the
 * part of the word bash replaces. `npx [-y …] mcpwire …` is completed too, by the mcpwire npx
 * would run (`node_modules/.bin` here or above, else PATH); any other `npx` line is left to what
 * completed `npx` before (else file names).
 */
const BASH = `# mcpwire completion for bash: completes \`mcpwire …\` and \`npx mcpwire …\`.
# Load it in ~/.bashrc (a global mcpwire):
#   source <(mcpwire completion bash)
# or, with mcpwire installed in a project, in a shell in that project:
#   source <(npx mcpwire completion bash)
# or install it: mcpwire completion bash > ~/.local/share/bash-completion/completions/mcpwire
_mcpwire() {
  local line=\${COMP_LINE:0:COMP_POINT} words=() cword=0 i word rest spaced
  for ((i = 0; i <= COMP_CWORD && i < \${#COMP_WORDS[@]}; i++)); do
    word=\${COMP_WORDS[i]}
    rest=\${line#"\${line%%[![:space:]]*}"}
    spaced=$(( \${#rest} != \${#line} ))
    line=\${rest#"$word"}
    if ((i > 0 && !spaced)); then words[\${#words[@]}-1]+=$word; else words+=("$word"); fi
    ((i == COMP_CWORD)) && cword=$(( \${#words[@]} - 1 ))
  done
  for ((i = COMP_CWORD + 1; i < \${#COMP_WORDS[@]}; i++)); do words+=("\${COMP_WORDS[i]}"); done
  local full=\${words[cword]} cur=\${COMP_WORDS[COMP_CWORD]} cut
  [[ $cur == *[!:=]* ]] && cut=\${full%"$cur"} || cut=$full
  local program=(command "\${words[0]}") m
  if [[ \${words[0]##*/} == npx ]]; then
    for ((m = 1; m < \${#words[@]}; m++)); do [[ \${words[m]} == -* ]] || break; done
    [[ \${words[m]} == mcpwire || \${words[m]} == mcpwire@* ]] && ((cword > m)) || return 1
    __mcpwire_npx_bin || { __mcpwire_missing; return 1; }
    program=("$__mcpwire_bin")
    words=("\${words[@]:m}")
    ((cword -= m))
  fi
  local IFS=$'\\n' answer
  answer=$("\${program[@]}" __complete "$cword" "\${words[@]}" 2>/dev/null) || return
  COMPREPLY=()
  if [[ $answer == :files ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "\${full#"$cut"}"))
    return
  fi
  local value
  for value in $answer; do
    value=\${value%%$'\\t'*}
    [[ $value == "$cut"* ]] && COMPREPLY+=("\${value#"$cut"}")
  done
  [[ \${#COMPREPLY[@]} == 1 && \${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
  return 0
}
# The mcpwire that npx runs here: node_modules/.bin/mcpwire in this directory or above, else PATH's.
__mcpwire_npx_bin() {
  local dir=$PWD
  while [[ -n $dir ]]; do
    [[ -x $dir/node_modules/.bin/mcpwire ]] && { __mcpwire_bin=$dir/node_modules/.bin/mcpwire; return 0; }
    dir=\${dir%/*}
  done
  __mcpwire_bin=$(type -P mcpwire)
}
__mcpwire_missing() {
  [[ $__mcpwire_told == "$PWD" ]] && return
  __mcpwire_told=$PWD
  printf '\\n${MISSING}\\n' "$PWD" >&2
}
_mcpwire_npx() {
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do [[ \${COMP_WORDS[i]} == -* ]] || break; done
  if ((i < COMP_CWORD)) && [[ \${COMP_WORDS[i]} == mcpwire || \${COMP_WORDS[i]} == mcpwire@* ]]; then
    compopt +o default 2>/dev/null
    _mcpwire "$@"
    return
  fi
  [[ $__mcpwire_npx_before =~ -F\\ ([^ ]+) ]] && "\${BASH_REMATCH[1]}" "$@"
}
complete -F _mcpwire mcpwire
[[ $(complete -p npx 2>/dev/null) == *_mcpwire_npx* ]] || __mcpwire_npx_before=$(complete -p npx 2>/dev/null)
complete -o default -F _mcpwire_npx npx
`;

const ZSH = `#compdef mcpwire npx
# mcpwire completion for zsh: completes \`mcpwire …\` and \`npx mcpwire …\`.
# Load it in ~/.zshrc (after compinit; a global mcpwire):
#   source <(mcpwire completion zsh)
# or, with mcpwire installed in a project, in a shell in that project:
#   source <(npx mcpwire completion zsh)
# or install it as _mcpwire in a directory of $fpath:
#   mcpwire completion zsh > "\${fpath[1]}/_mcpwire"
_mcpwire() {
  local -a answer values descriptions program
  local line m=1
  program=(command "\${words[1]}")
  if [[ \${words[1]:t} == npx ]]; then
    for ((m = 2; m < CURRENT; m++)); do [[ \${words[m]} == -* ]] || break; done
    if (( m >= CURRENT )) || [[ \${words[m]} != mcpwire && \${words[m]} != mcpwire@* ]]; then
      if [[ -n $__mcpwire_npx_before ]]; then $__mcpwire_npx_before "$@"; else _default "$@"; fi
      return
    fi
    local dir=$PWD bin=
    while [[ -n $dir ]]; do
      [[ -x $dir/node_modules/.bin/mcpwire ]] && { bin=$dir/node_modules/.bin/mcpwire; break; }
      dir=\${dir%/*}
    done
    [[ -z $bin ]] && bin=\${commands[mcpwire]}
    if [[ -z $bin ]]; then
      local text='${MISSING}'
      _message -r "\${text/\\%s/$PWD}"
      return 1
    fi
    program=("$bin")
  fi
  answer=("\${(@f)$("\${program[@]}" __complete $((CURRENT - m)) "\${(@Q)words[m,-1]}" 2>/dev/null)}")
  if [[ \${answer[1]} == :files ]]; then
    _files
    return
  fi
  for line in $answer; do
    [[ -z $line ]] && continue
    values+=("\${line%%$'\\t'*}")
    if [[ $line == *$'\\t'* ]]; then
      descriptions+=("\${line%%$'\\t'*} -- \${line#*$'\\t'}")
    else
      descriptions+=("\${line}")
    fi
  done
  (( \${#values} )) || return 1
  local suffix=()
  [[ \${#values} == 1 && \${values[1]} == *= ]] && suffix=(-S '')
  compadd -l -d descriptions $suffix -a values
}
if [[ \${funcstack[1]} == _mcpwire ]]; then
  _mcpwire "$@"
else
  [[ -n \${_comps[npx]} && \${_comps[npx]} != _mcpwire ]] && __mcpwire_npx_before=\${_comps[npx]}
  compdef _mcpwire mcpwire npx
fi
`;

const FISH = `# mcpwire completion for fish: completes \`mcpwire …\` and \`npx mcpwire …\`.
# Load it in ~/.config/fish/config.fish (a global mcpwire):
#   mcpwire completion fish | source
# or, with mcpwire installed in a project, in a shell in that project:
#   npx mcpwire completion fish | source
# or install it: mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish
# The index of mcpwire in an npx line's words (npx [-y ...] mcpwire ...), if it is one.
function __mcpwire_npx_index
    test (string replace -r '.*/' '' -- $argv[1]) = npx; or return 1
    for i in (seq 2 (count $argv))
        switch $argv[$i]
            case '-*'
                continue
            case mcpwire 'mcpwire@*'
                echo $i
                return 0
            case '*'
                return 1
        end
    end
    return 1
end
# The mcpwire that npx runs here: node_modules/.bin/mcpwire in this directory or above, else PATH's.
function __mcpwire_npx_bin
    set -l dir $PWD
    while test -n "$dir"
        if test -x "$dir/node_modules/.bin/mcpwire"
            echo "$dir/node_modules/.bin/mcpwire"
            return 0
        end
        set dir (string replace -r '/[^/]*$' '' -- $dir)
    end
    command -s mcpwire
end
function __mcpwire_complete
    set -l before (commandline -opc)
    set -l word (commandline -ct)
    set -l all (commandline -op)
    set -l index (count $before)
    set -l next (math $index + 1)
    test -n "$word"; and set next (math $index + 2)
    set -l after
    test $next -le (count $all); and set after $all[$next..-1]
    set -l m (__mcpwire_npx_index $before)
    set -l answer
    if test -n "$m"
        set -l bin (__mcpwire_npx_bin)
        if test -z "$bin"
            if test "$__mcpwire_told" != "$PWD"
                set -g __mcpwire_told $PWD
                printf '\\n${MISSING}\\n' $PWD >&2
            end
            return
        end
        set before $before[$m..-1]
        set answer ($bin __complete (count $before) $before $word $after 2>/dev/null)
    else
        set answer (command $before[1] __complete $index $before $word $after 2>/dev/null)
    end
    if test "$answer[1]" = :files
        __fish_complete_path $word
        return
    end
    printf '%s\\n' $answer
end
complete -c mcpwire -f -a '(__mcpwire_complete)'
complete -c npx -n '__mcpwire_npx_index (commandline -opc) >/dev/null' -f -a '(__mcpwire_complete)'
`;

/** The completion script for `shell`, or undefined for a shell mcpwire has none for. */
export function completionScript(shell: string): string | undefined {
  return shell === 'bash' ? BASH : shell === 'zsh' ? ZSH : shell === 'fish' ? FISH : undefined;
}

/** The shells {@link completionScript} knows. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
