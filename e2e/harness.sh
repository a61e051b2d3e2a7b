# Sourced by run.sh and package.sh: a private X server and tauri-driver in front of
# WebKitWebDriver. The caller sets `work` (a scratch folder), `pids` (processes to stop
# on exit) and `driver` (tauri-driver's path); start_display exports DISPLAY and
# start_driver sets driver_port.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_display() {
  local display=":$((90 + RANDOM % 100))"
  Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
  pids+=($!)
  export DISPLAY="$display"
  for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done
}

start_driver() {
  driver_port="$(free_port)"
  local native_port
  native_port="$(free_port)"
  "$driver" --port "$driver_port" --native-port "$native_port" --native-driver /usr/bin/WebKitWebDriver \
    >"$work/driver.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$driver_port/status" >/dev/null && break; sleep 0.1; done
}
