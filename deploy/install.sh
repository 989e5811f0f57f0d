#!/usr/bin/env bash
# Install the tabletop referee as a service on Raspberry Pi OS (Bookworm, 64-bit).
#
#   sudo ./deploy/install.sh            # from a checkout of the project
#
# Safe to run again (to upgrade): it reinstalls the package, keeps /etc/referee/config.toml and
# the match store, and restarts the service. Set REFEREE_NO_START=1 to install without starting.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/referee
VENV="$PREFIX/venv"
CONF_DIR=/etc/referee
CONF="$CONF_DIR/config.toml"
STATE=/var/lib/referee
UNIT=/etc/systemd/system/referee.service
SERVICE_USER=referee

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
warn() { printf '\033[33mwarning: %s\033[0m\n' "$*" >&2; }
die() { printf '\033[31merror: %s\033[0m\n' "$*" >&2; exit 1; }

[[ $EUID -eq 0 ]] || die "run as root: sudo $0"
[[ -f "$SRC/pyproject.toml" ]] || die "$SRC is not the project checkout (no pyproject.toml)"
command -v apt-get >/dev/null || die "apt-get not found: this installer is for Raspberry Pi OS"

arch="$(uname -m)"
[[ $arch == aarch64 ]] || warn "this is $arch, not aarch64: tested on 64-bit Raspberry Pi OS only"
if [[ -r /etc/os-release ]]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    [[ ${VERSION_CODENAME:-} == bookworm ]] || warn "this is ${PRETTY_NAME:-an unknown OS}, not Bookworm"
fi

say "Installing system packages (Python venv, Picamera2, lgpio, I2C tools, fonts)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# The fonts: an ordinary deck's corner index is read against rank glyphs drawn in DejaVu and
# Liberation (vision/decks/index_reader.py); without them only OpenCV's own font is left, and
# OpenCV 5 draws all its font faces alike.
apt-get install -y -q python3-venv python3-pip python3-picamera2 python3-lgpio i2c-tools \
    fonts-dejavu-core fonts-liberation

say "Creating the service user '$SERVICE_USER'"
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin \
        --user-group "$SERVICE_USER"
fi
for group in gpio video i2c; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" "$SERVICE_USER"
    else
        warn "group '$group' does not exist; skipped (enable the interface with raspi-config)"
    fi
done
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE"

say "Installing the referee into $VENV"
install -d -m 0755 "$PREFIX"
if [[ ! -x "$VENV/bin/python" ]]; then
    # System site packages: Picamera2 and lgpio come from apt, not pip.
    python3 -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet --upgrade "$SRC[pi]"
rm -rf "$PREFIX/src"
install -d -m 0755 "$PREFIX/src"
cp -r "$SRC/docs" "$SRC/deploy" "$PREFIX/src/"
"$VENV/bin/python" -c "import referee, hardware, gpiozero" ||
    die "the installed package does not import; see the pip output above"

say "Configuration: $CONF"
install -d -m 0755 "$CONF_DIR"
if [[ -e $CONF ]]; then
    echo "    keeping the existing $CONF"
else
    # The example shows the defaults; the service turns the hardware on and keeps its
    # matches in /var/lib/referee.
    sed -e '/^\[hardware\]/,/^\[/ s/^enabled = false/enabled = true/' \
        -e "s|^path = \"~/.local/share/referee/matches.sqlite3\"|path = \"$STATE/matches.sqlite3\"|" \
        "$SRC/deploy/config.example.toml" >"$CONF"
    chown root:"$SERVICE_USER" "$CONF"
    chmod 0640 "$CONF"
    echo "    wrote $CONF (edit it: seats, pads, admin_pin; see docs/configuration.md)"
fi

say "Installing the systemd unit $UNIT"
install -m 0644 "$SRC/deploy/referee.service" "$UNIT"
systemctl daemon-reload
systemctl enable referee.service >/dev/null
if [[ ${REFEREE_NO_START:-0} == 1 ]]; then
    echo "    enabled; not started (REFEREE_NO_START=1). Start: sudo systemctl start referee"
else
    systemctl restart referee.service
    sleep 2
    if systemctl is-active --quiet referee.service; then
        port="$(sed -n 's/^port = \([0-9]*\)/\1/p' "$CONF" | head -n1)"
        say "The referee is running: http://$(hostname).local:${port:-8080}/"
    else
        warn "the service did not stay up; see: journalctl -u referee -n 50"
        exit 1
    fi
fi
echo "Logs: journalctl -u referee -f    Config: $CONF    Wiring: $PREFIX/src/deploy/WIRING.md"
