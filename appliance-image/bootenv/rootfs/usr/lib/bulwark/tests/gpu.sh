# name: gpu
# tags: commissioning,gpu
# destructive: false
# timeout: 1800
# parallel: false
# Counts NVIDIA GPUs on the PCI bus; where there are some, DCGM's diagnostics run on the deployed node
# through its agent (the boot environment carries no NVIDIA driver).
n=0
for d in /sys/bus/pci/devices/*; do
  case "$(cat $d/vendor):$(cat $d/class)" in 0x10de:0x0300*|0x10de:0x0302*) n=$((n + 1)); echo "GPU at ${d##*/}" ;; esac
done
if [ $n -eq 0 ]; then
  echo "gpu: no NVIDIA GPU on this machine (a VM or a CPU node): nothing to test"
else
  echo "gpu: $n NVIDIA GPUs on the PCI bus; run dcgm-diag level 3 through the node agent after deployment"
fi
exit 0
