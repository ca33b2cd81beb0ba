/// A callgrind part for the reader's tests (the instruction gate's and the span's).
package enum CallgrindSample {
    /// A part as callgrind 3.19 writes it with `--compress-strings=no --compress-pos=no`.
    package static let part = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        pid: 4242
        cmd:  /tmp/filmstrip bench-run --config {}
        part: 2

        desc: I1 cache:
        desc: Trigger: --dump-before=filmstrip_mark_compose_begins

        positions: line
        events: Ir
        summary: 1500

        ob=/usr/lib/x86_64-linux-gnu/libavcodec.so.59.37.100
        fl=???
        fn=avcodec_send_packet
        0 700
        cob=/tmp/shim.so
        cfl=???
        cfn=helper
        calls=3 0
        0 400
        0 100

        ob=/tmp/shim.so
        fl=???
        fn=helper
        0 400

        ob=/tmp/filmstrip
        fl=???
        fn=$s9Filmstrip4mainyyF
        0 300

        totals: 1500
        """
}
