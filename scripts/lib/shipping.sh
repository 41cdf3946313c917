# Sourced by scripts/install and scripts/package, from the repository's top folder: the binary they
# ship, its systemd user unit and the data files beside it (the places table and the map outlines).

# Sets `binary` to the shoebox to ship: $SHOEBOX_BIN when set (the tests ship the build they made),
# else a release build with the Swift runtime linked in, made now.
shoebox_binary() {
  binary="${SHOEBOX_BIN:-}"
  if [ -z "$binary" ]; then
    scripts/dependencies
    swift build -c release --static-swift-stdlib --product shoebox
    binary="$(swift build -c release --static-swift-stdlib --product shoebox --show-bin-path)/shoebox"
  fi
  [ -x "$binary" ] || { echo "No executable at $binary: build it (swift build --product shoebox) or unset SHOEBOX_BIN." >&2; return 1; }
}

# Writes packaging/systemd/shoebox.service to $2 with ExecStart naming the binary at $1.
shoebox_write_unit() {
  # A '|' cannot be in the sed pattern's path.
  sed "s|^ExecStart=/usr/local/bin/shoebox |ExecStart=$1 |" packaging/systemd/shoebox.service >"$2.new"
  chmod 644 "$2.new"
  mv "$2.new" "$2"
}

# Puts the data file named $1 (places.bin, countries.geojson) at $2: a copy of $3 (its $SHOEBOX_…
# override, may be empty) or of ${XDG_DATA_HOME:-~/.local/share}/shoebox/$1, the first that exists;
# else the file already at $2; else one scripts/$4 (places-data, map-data) makes. Sets `data_note`
# to which, or to "" when none worked (scripts/$4 said why).
shoebox_data_file() {
  local name="$1" destination="$2" override="$3" maker="$4" source="" candidate
  for candidate in "$override" "${XDG_DATA_HOME:-$HOME/.local/share}/shoebox/$name"; do
    if [ -n "$candidate" ] && [ -f "$candidate" ]; then source="$candidate"; break; fi
  done
  install -d "$(dirname "$destination")"
  if [ -n "$source" ] && ! [ "$source" -ef "$destination" ]; then
    install -m 644 "$source" "$destination.new"
    mv "$destination.new" "$destination"
    data_note="copied from $source"
  elif [ -f "$destination" ]; then
    data_note="kept from before"
  elif "scripts/$maker" "$destination.new" && mv "$destination.new" "$destination"; then
    chmod 644 "$destination"
    data_note="built by scripts/$maker"
  else
    rm -f "$destination.new"
    data_note=""
  fi
}
