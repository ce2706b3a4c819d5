//go:build ignore

// gen writes the playground's sounds as small WAV files (16-bit mono,
// 22,050 Hz), synthesised here, so they are this project's own work:
//
//	cd static/sounds && go run gen.go
package main

import (
	"encoding/binary"
	"log"
	"math"
	"os"
)

const rate = 22050

// tone is a sine at freq Hz starting at start seconds, lasting dur
// seconds, fading out exponentially at decay per second.
type tone struct{ start, dur, freq, amp, decay float64 }

// sound is tones, and a click of noise at the start (0 for none).
type sound struct {
	tones []tone
	click float64
}

var sounds = map[string]sound{
	"move":    {tones: []tone{{0, 0.09, 440, 0.55, 45}, {0, 0.09, 880, 0.15, 60}}, click: 0.35},
	"capture": {tones: []tone{{0, 0.12, 330, 0.6, 30}, {0.045, 0.1, 660, 0.35, 40}}, click: 0.6},
	"check":   {tones: []tone{{0, 0.14, 880, 0.4, 12}, {0.12, 0.2, 1175, 0.4, 10}}},
	"ban":     {tones: []tone{{0, 0.22, 196, 0.55, 14}, {0, 0.22, 207.7, 0.35, 14}, {0, 0.22, 392, 0.12, 18}}, click: 0.2},
	"end":     {tones: []tone{{0, 0.6, 523.25, 0.3, 4}, {0.12, 0.5, 659.25, 0.3, 4}, {0.24, 0.45, 783.99, 0.3, 4}}},
	// An offer from the opponent, or news of one's own: two soft rising
	// notes, unlike any ply's.
	"offer": {tones: []tone{{0, 0.18, 659.25, 0.35, 9}, {0.14, 0.26, 987.77, 0.35, 8}}},
}

func main() {
	for name, s := range sounds {
		if err := os.WriteFile(name+".wav", wav(s.samples()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func (s sound) samples() []int16 {
	end := 0.0
	for _, t := range s.tones {
		end = max(end, t.start+t.dur)
	}
	out := make([]int16, int(end*rate))
	seed := uint32(1)
	for i := range out {
		x := float64(i) / rate
		v := 0.0
		for _, t := range s.tones {
			if x < t.start || x > t.start+t.dur {
				continue
			}
			dt := x - t.start
			attack := math.Min(1, dt*400) // 2.5 ms, no pop
			release := math.Min(1, (t.start+t.dur-x)*200)
			v += t.amp * attack * release * math.Exp(-t.decay*dt) * math.Sin(2*math.Pi*t.freq*dt)
		}
		if s.click > 0 && x < 0.012 {
			seed = seed*1664525 + 1013904223
			v += s.click * (float64(seed>>16)/32768 - 1) * (1 - x/0.012)
		}
		out[i] = int16(math.Max(-1, math.Min(1, v)) * 32000)
	}
	return out
}

// wav wraps samples in a RIFF WAVE header.
func wav(samples []int16) []byte {
	data := len(samples) * 2
	b := make([]byte, 0, 44+data)
	le := binary.LittleEndian
	b = append(b, "RIFF"...)
	b = le.AppendUint32(b, uint32(36+data))
	b = append(b, "WAVEfmt "...)
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1) // PCM
	b = le.AppendUint16(b, 1) // mono
	b = le.AppendUint32(b, rate)
	b = le.AppendUint32(b, rate*2)
	b = le.AppendUint16(b, 2)
	b = le.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(data))
	for _, s := range samples {
		b = le.AppendUint16(b, uint16(s))
	}
	return b
}
