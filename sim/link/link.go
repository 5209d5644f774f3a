// Package link holds the link presets — NVLink, PCIe, InfiniBand, RoCEv2,
// Ethernet — with their data rates and per-packet header overheads, as given in
// REFERENCE.md.
package link

import (
	"fmt"

	"fabriclab/sim/unit"
)

// Kind names a link technology.
type Kind string

// Link kinds.
const (
	NVLink4  Kind = "nvlink4"
	PCIe5    Kind = "pcie5"
	IB       Kind = "ib"
	RoCE     Kind = "roce"
	Ethernet Kind = "ethernet"
	// ICI is a TPU-style inter-chip link of a torus: credit-based, its rate
	// a data rate (REFERENCE.md, "TPU ICI link rates").
	ICI Kind = "ici"
)

// Per-packet overheads in bytes on the wire, beyond the payload.
const (
	// IBHeader is LRH 8 + BTH 12 + ICRC 4 + VCRC 2: 4096/(4096+26) = 99.37 %.
	IBHeader unit.Bytes = 8 + 12 + 4 + 2
	// RoCEHeader is Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 + preamble/SFD 8 + IFG 12.
	RoCEHeader unit.Bytes = 14 + 20 + 8 + 12 + 4 + 4 + 8 + 12
	// EthernetHeader is Ethernet 14 + IPv4 20 + TCP 20 + FCS 4 + preamble/SFD 8 + IFG 12.
	EthernetHeader unit.Bytes = 14 + 20 + 20 + 4 + 8 + 12
	// PCIeHeader is a TLP's framing 2 + sequence 2 + header 16 + LCRC 4 + ECRC 4 (per 4096 bytes moved).
	PCIeHeader unit.Bytes = 28
	// NVLinkHeader is zero: the NVLink figures used here are already data rates.
	NVLinkHeader unit.Bytes = 0
)

// Preset rates (per direction).
const (
	NVLink4Rate = 450 * 8 * unit.Gbps // 450 GB/s per direction per GPU (H100)
	NVLink3Rate = 300 * 8 * unit.Gbps // 300 GB/s per direction per GPU (A100)
	PCIe5Rate   = 504.1 * unit.Gbps   // 32 GT/s × 16 lanes × 128/130
	PCIe4Rate   = 252.1 * unit.Gbps   // 16 GT/s × 16 lanes × 128/130 (A100's NICs)
	HDRRate     = 200 * unit.Gbps
	NDRRate     = 400 * unit.Gbps
	XDRRate     = 800 * unit.Gbps
)

// Header returns the per-packet overhead of kind k.
func Header(k Kind) unit.Bytes {
	switch k {
	case IB:
		return IBHeader
	case RoCE:
		return RoCEHeader
	case Ethernet:
		return EthernetHeader
	case PCIe5:
		return PCIeHeader
	case NVLink4, ICI:
		return NVLinkHeader
	}
	panic(fmt.Sprintf("link: unknown kind %q", k))
}

// Efficiency is the share of the wire rate that carries payload with packets of mtu payload bytes.
func Efficiency(k Kind, mtu unit.Bytes) float64 {
	return float64(mtu) / float64(mtu+Header(k))
}

// Named presets, for `fabric`-independent references in docs and the CLI.
var presets = map[string]struct {
	Kind Kind
	Rate unit.Rate
}{
	"nvlink4": {NVLink4, NVLink4Rate}, "pcie5": {PCIe5, PCIe5Rate},
	"hdr": {IB, HDRRate}, "ndr": {IB, NDRRate}, "xdr": {IB, XDRRate},
	"roce100": {RoCE, 100 * unit.Gbps}, "roce200": {RoCE, 200 * unit.Gbps},
	"roce400": {RoCE, 400 * unit.Gbps}, "roce800": {RoCE, 800 * unit.Gbps},
}

// Preset returns the kind and rate of a named preset (nvlink4, pcie5, hdr, ndr, xdr, roce100…roce800).
func Preset(name string) (Kind, unit.Rate, bool) {
	p, ok := presets[name]
	return p.Kind, p.Rate, ok
}
