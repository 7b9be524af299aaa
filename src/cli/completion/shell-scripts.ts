/**
 * The completion scripts `mcpwire completion bash|zsh|fish` prints. Each asks the CLI on every
 * TAB: `mcpwire __complete INDEX WORD...` (every word of the line, `WORD[0]` the program, INDEX
 * the one being completed) prints one candidate a line, `value<TAB>description`, or the single
 * line `:files` for "a file name goes here". The scripts only pass words and show the answer.
 */

/**
 * bash: `COMP_WORDS` split at `:` and `=` (`COMP_WORDBREAKS`) are joined back by what the line
 * holds, so `--server=x` and `host:name` reach the CLI as typed; the answer is cut back to the
 * part of the word bash replaces.
 */
const BASH = `# mcpwire completion for bash. Load it in ~/.bashrc:
#   source <(mcpwire completion bash)
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
  local IFS=$'\\n' answer
  answer=$(command "\${words[0]}" __complete "$cword" "\${words[@]}" 2>/dev/null) || return
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
complete -F _mcpwire mcpwire
`;

const ZSH = `#compdef mcpwire
# mcpwire completion for zsh. Load it in ~/.zshrc (after compinit):
#   source <(mcpwire completion zsh)
# or install it as _mcpwire in a directory of $fpath:
#   mcpwire completion zsh > "\${fpath[1]}/_mcpwire"
_mcpwire() {
  local -a answer values descriptions
  local line
  answer=("\${(@f)$(command "\${words[1]}" __complete $((CURRENT - 1)) "\${(@Q)words}" 2>/dev/null)}")
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
  compdef _mcpwire mcpwire
fi
`;

const FISH = `# mcpwire completion for fish. Load it in ~/.config/fish/config.fish:
#   mcpwire completion fish | source
# or install it: mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish
function __mcpwire_complete
    set -l before (commandline -opc)
    set -l word (commandline -ct)
    set -l all (commandline -op)
    set -l index (count $before)
    set -l next (math $index + 1)
    test -n "$word"; and set next (math $index + 2)
    set -l after
    test $next -le (count $all); and set after $all[$next..-1]
    set -l answer (command $before[1] __complete $index $before $word $after 2>/dev/null)
    if test "$answer[1]" = :files
        __fish_complete_path $word
        return
    end
    printf '%s\\n' $answer
end
complete -c mcpwire -f -a '(__mcpwire_complete)'
`;

/** The completion script for `shell`, or undefined for a shell mcpwire has none for. */
export function completionScript(shell: string): string | undefined {
  return shell === 'bash' ? BASH : shell === 'zsh' ? ZSH : shell === 'fish' ? FISH : undefined;
}

/** The shells {@link completionScript} knows. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
