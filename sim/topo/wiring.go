package topo

import (
	"fabriclab/sim/link"
	"fabriclab/sim/unit"
)

// The link rates of a fabric, each derived once here from the scenario's
// keys (sim/plan calls them; the models read the rates off the built links).

// FabricKind is the link kind of topology.fabric (ib, roce or ethernet);
// false for another name.
func FabricKind(fabric string) (link.Kind, bool) {
	switch fabric {
	case "ib":
		return link.IB, true
	case "roce":
		return link.RoCE, true
	case "ethernet":
		return link.Ethernet, true
	}
	return "", false
}

// LinkRate is topology.link_gbps as the rate of host and switch links.
func LinkRate(gbps float64) unit.Rate { return unit.Rate(gbps) * unit.Gbps }

// NVLinkRate is the data rate per direction of NVLink generation gen (3:
// A100, 5: B200 at 900 GB/s, else 4: H100) scaled by
// topology.nvlink_efficiency.
func NVLinkRate(gen int, efficiency float64) unit.Rate {
	rate := link.NVLink4Rate
	switch gen {
	case 3:
		rate = link.NVLink3Rate
	case 5:
		rate = 2 * link.NVLink4Rate
	}
	return rate * unit.Rate(efficiency)
}

// NICRate is the GPU–NIC link rate that carries efficiency
// (topology.nic_efficiency) of the NIC's payload rate on a wire of kind k
// and rate wire with packets of mtu payload bytes, at most pcie (PCIe Gen5
// x16 from H100 on, Gen4 x16 on A100).
func NICRate(k link.Kind, wire unit.Rate, mtu unit.Bytes, efficiency float64, pcie unit.Rate) unit.Rate {
	payload := float64(wire) * link.Efficiency(k, mtu) * efficiency
	return unit.Rate(min(payload/link.Efficiency(link.PCIe5, mtu), float64(pcie)))
}
